/**
 * The Settings tab's avatar or logo: chosen, checked here for its size and kind (the server checks
 * its bytes again), uploaded at once (PUT …/avatar), shown, removable. Not part of the form's
 * save: the image is stored when chosen and the assistant re-read (`onChanged`).
 */
import { useId, useRef, useState } from "react";
import { assistantAvatar, avatarMessages as M } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";

const maxKb = Math.round(assistantAvatar.maxBytes / 1024);
const accepted = assistantAvatar.accept.split(",");

/** The sentence for a file the server would refuse anyway, or null. */
export function avatarFileProblem(file: { size: number; type: string }): string | null {
  if (file.size > assistantAvatar.maxBytes) return M.tooLarge(maxKb);
  // An empty type (some systems) goes to the server, which reads the bytes.
  if (file.type && !accepted.includes(file.type)) return M.wrongType;
  return null;
}

export function AvatarField({ assistantId, avatarUrl, onChanged }: { assistantId: string; avatarUrl: string; onChanged: () => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<"upload" | "remove" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File) => {
    const problem = avatarFileProblem(file);
    setError(problem);
    if (problem) return;
    setBusy("upload");
    try {
      await publicAssistantsApi.setAvatar(assistantId, file);
      toast({ variant: "success", description: M.uploaded });
      onChanged();
    } catch (err) {
      setError(errorMessage(err, M.failed));
    } finally {
      setBusy(null);
      if (input.current) input.current.value = "";
    }
  };

  const remove = async () => {
    setBusy("remove");
    setError(null);
    try {
      await publicAssistantsApi.removeAvatar(assistantId);
      toast({ variant: "success", description: M.removed });
      onChanged();
    } catch (err) {
      setError(errorMessage(err, M.failed));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div role="group" aria-labelledby={`${id}-label`} aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <p id={`${id}-label`} className="mb-1.5 text-sm font-medium text-fg">
        {M.label}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {avatarUrl ? (
          <img src={avatarUrl} alt={M.current} className="size-12 shrink-0 rounded-full border border-line object-cover" />
        ) : (
          <span aria-hidden="true" className="size-12 shrink-0 rounded-full border border-dashed border-line-strong bg-subtle" />
        )}
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept={assistantAvatar.accept}
          className="sr-only"
          aria-label={M.label}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void upload(file);
          }}
        />
        <Button variant="secondary" size="sm" busy={busy === "upload"} disabled={busy !== null} onClick={() => input.current?.click()}>
          {avatarUrl ? M.replace : M.choose}
        </Button>
        {avatarUrl && (
          <Button variant="ghost" size="sm" busy={busy === "remove"} disabled={busy !== null} onClick={() => void remove()}>
            {M.remove}
          </Button>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1.5 text-xs font-medium text-danger">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">
          {avatarUrl ? M.hint(maxKb) : `${M.none} ${M.hint(maxKb)}`}
        </p>
      )}
    </div>
  );
}
