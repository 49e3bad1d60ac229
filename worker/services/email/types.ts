/** One e-mail as Tala sends it. */
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
