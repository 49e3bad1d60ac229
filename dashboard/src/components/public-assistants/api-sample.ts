/** The OpenAI-compatible API sample of the integration dialog: a secret-key placeholder, never the publishable key. */
import { assistantSecretKey, openAiCompat, openAiCompatPath } from "../../../../contract";

/** The environment variable the sample reads the secret key from (so no key is pasted into it). */
export const secretKeyVariable = "TALA_SECRET_KEY";

/** A curl call to POST /api/v1/chat/completions on `origin`, the key taken from `$TALA_SECRET_KEY`. */
export function openAiSample(origin: string): string {
  const body = JSON.stringify({ model: openAiCompat.defaultModel, messages: [{ role: "user", content: "Hello" }] });
  return [
    `# ${secretKeyVariable}=${assistantSecretKey.prefix}… (a secret key from this dialog; keep it on your server)`,
    `curl ${origin}${openAiCompatPath} \\`,
    `  -H "Authorization: Bearer $${secretKeyVariable}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${body}'`,
  ].join("\n");
}
