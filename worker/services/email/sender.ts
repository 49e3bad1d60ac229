import { isLocal } from "../../env";
import type { ServiceContext } from "../context";
import { devOutboxSender } from "./dev-outbox-sender";
import { httpEmailSender } from "./http-sender";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one-time code the e-mail carries, kept by the dev outbox so tests and `npm start` can read it. */
  code?: string;
}

/** Delivers one e-mail or throws an AppError (SERVICE_UNAVAILABLE) the caller may surface. */
export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

/** Local mode writes to the dev outbox; anywhere else e-mail goes out over HTTP. */
export function emailSenderFor(ctx: ServiceContext): EmailSender {
  return isLocal(ctx.env) ? devOutboxSender(ctx.db) : httpEmailSender(ctx.env);
}
