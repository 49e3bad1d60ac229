/** A source's address as a link target: only an absolute http(s) URL (a web page the answer drew on); null otherwise. */
export function sourceHref(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
