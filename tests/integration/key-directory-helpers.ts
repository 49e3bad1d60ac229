/** A response as the key-directory tests compare it: with the key remembered by the isolate, and without. */
export interface Answer {
  status: number;
  body: unknown;
  allowOrigin: string | null;
}

/** Status, body (JSON when it is, its requestId dropped: it differs per call) and the reflected Origin. */
export async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a stream: compared as text
  }
  if (body && typeof body === "object") delete (body as Record<string, unknown>).requestId;
  return { status: res.status, body, allowOrigin: res.headers.get("access-control-allow-origin") };
}
