import { useEffect } from "react";
import type { PublicAssistant } from "../../../../contract";

/** While a knowledge file is still processing, what shows it is read again this often. */
export const PROCESSING_POLL_MS = 3000;

/** Re-reads (`reload`) every PROCESSING_POLL_MS while any of these assistants has a file processing. */
export function useProcessingPoll(assistants: readonly PublicAssistant[], reload: () => void) {
  const processing = assistants.some((a) => a.files.some((f) => f.status === "processing"));
  useEffect(() => {
    if (!processing) return;
    const id = setTimeout(reload, PROCESSING_POLL_MS);
    return () => clearTimeout(id);
  }, [processing, assistants, reload]);
}
