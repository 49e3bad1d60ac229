import { devOutbox } from "../../db/schema";
import type { Db } from "../../db/client";
import type { EmailSender } from "./types";

/**
 * Local mode's sender: keeps the e-mail in the dev_outbox table (read at GET /api/dev/outbox)
 * and prints one line, so the code shows in the `npm start` log without any mail setup.
 */
export function devOutboxSender(db: Db): EmailSender {
  return {
    async send(message) {
      await db.insert(devOutbox).values({
        id: crypto.randomUUID(),
        to: message.to,
        subject: message.subject,
        text: message.text,
        code: message.code ?? null,
        sentAt: Date.now(),
      });
      console.log(`[dev-outbox] to=${message.to} subject=${JSON.stringify(message.subject)} code=${message.code ?? "-"}`);
    },
  };
}
