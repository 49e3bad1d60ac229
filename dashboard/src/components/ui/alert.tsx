/** A form's error message (the catalogue's message), announced when it appears. */
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
