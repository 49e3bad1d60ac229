/**
 * The texts of the spec's titled failure toasts (section 8), each a fixed order of sources.
 * Pure, unit-tested.
 */
import { publicAssistantMessages as M } from "../../../../contract";

/** The exception's message (the server's `error` when the API client read one), else `fallback`. */
export function exceptionText(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

/** 'Upload Failed': the server's error text, else the exception's message, else the fallback. */
export const uploadFailureText = (err: unknown) => exceptionText(err, M.uploadFailedFallback);

/** 'Delete Failed' (a knowledge file): the server's error text, else the exception's message, else the fallback. */
export const deleteFileFailureText = (err: unknown) => exceptionText(err, M.deleteFileFallback);

/** 'Error' (chat history): the exception's message, else 'Failed to fetch chat history'. */
export const historyFailureText = (err: unknown) => exceptionText(err, M.historyFetchFailed);

