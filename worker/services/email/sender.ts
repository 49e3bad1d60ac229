import { isLocal } from "../../env";
import type { ServiceContext } from "../context";
import { devOutboxSender } from "./dev-outbox-sender";
import { httpEmailSender } from "./http-sender";

import type { EmailSender } from "./types";

export type { EmailMessage, EmailSender } from "./types";

/** Local mode writes to the dev outbox; anywhere else e-mail goes out over HTTP. */
export function emailSenderFor(ctx: ServiceContext): EmailSender {
  return isLocal(ctx.env) ? devOutboxSender(ctx.db) : httpEmailSender(ctx.env);
}
