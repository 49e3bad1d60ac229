/** A form's error message (the catalogue's message), announced when it appears. */
import { publicAssistantUi } from "../../../../contract";
import { Button } from "./button";
import { AlertIcon } from "./icons";

export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div role="alert" className="flex items-start gap-2 rounded-lg border border-danger-line bg-danger-soft px-3 py-2.5 text-sm text-danger">
      <AlertIcon size={16} className="mt-0.5 shrink-0" />
      <span>{message}</span>
    </div>
  );
}

/** Something failed to load: its message and a Retry button, announced when it appears. */
export function RetryAlert({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-danger-line bg-danger-soft px-4 py-3 text-sm text-danger">
      <p>{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {publicAssistantUi.screen.retry}
      </Button>
    </div>
  );
}
