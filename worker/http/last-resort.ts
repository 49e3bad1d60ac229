import { errorStatus, serverMessages, type ErrorBody } from "../../contract";
import { apiHeaders, baseSecurityHeaders } from "./security-headers";

/**
 * The answer when something escapes the app itself (its error handler failed, or work before it
 * threw): the envelope's generic 500 with the API's headers, never the runtime's own error page.
 * Logged with its request id; the error's text never reaches the client.
 */
export function lastResortResponse(request: Request, error: unknown): Response {
  const requestId = request.headers.get("x-request-id")?.slice(0, 64) || crypto.randomUUID();
  console.error(JSON.stringify({ requestId, event: "unhandled-request-error", error: String(error), stack: error instanceof Error ? error.stack : undefined }));
  const body: ErrorBody = { error: serverMessages.internal, code: "INTERNAL_ERROR", requestId };
  return new Response(JSON.stringify(body), {
    status: errorStatus.INTERNAL_ERROR,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...baseSecurityHeaders, ...apiHeaders },
  });
}
