import { isLocal } from "../../env";
import type { ServiceContext } from "../context";
import { devOutboxSender } from "./dev-outbox-sender";
import { httpEmailSender } from "./http-sender";

import type { EmailMessage, EmailSender } from "./types";

export type { EmailMessage, EmailSender } from "./types";

/**
 * Local mode writes to the dev outbox; anywhere else e-mail goes out over HTTP. Every subject is
 * one line (`oneLineSubject`), whatever names it quotes.
 */
export function emailSenderFor(ctx: ServiceContext): EmailSender {
  const sender = isLocal(ctx.env) ? devOutboxSender(ctx.db) : httpEmailSender(ctx.env);
  return { send: (message) => sender.send({ ...message, subject: oneLineSubject(message.subject) }) };
}

/**
 * A subject is a header: line breaks and other control characters in the names it quotes (an
 * assistant's, a person's) become single spaces, so no text can start a header of its own.
 */
export function oneLineSubject(subject: EmailMessage["subject"]): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return subject.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
}
