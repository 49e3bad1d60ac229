/**
 * Copies text to the clipboard: the async Clipboard API, else (older browsers, or a denied
 * permission) a hidden textarea and execCommand('copy'). Throws when neither works.
 */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // fall through to the legacy path
  }
  // The textarea goes next to the focused element, so a dialog's focus trap keeps it inside.
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const host = active?.parentElement ?? document.body;
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  area.style.pointerEvents = "none";
  host.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand("copy");
  } finally {
    area.remove();
    active?.focus();
  }
  if (!ok) throw new Error("Copy failed");
}

/** Saves a Blob as a file download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
