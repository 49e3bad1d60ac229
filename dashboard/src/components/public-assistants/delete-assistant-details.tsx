/**
 * What goes with a deleted assistant, named in its confirmation: its documents, website sources and
 * conversations (the sources read when the question opens), and, when it has had conversations, its
 * name typed to confirm (`useDeleteAssistantDetails(...).ready`).
 */
import { useEffect, useId, useState } from "react";
import { assistantLifecycleUi as U, publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { publicAssistantsApi } from "../../lib/public-assistants-api";

/** The name the owner types (the page's "Untitled assistant" for a nameless one). */
export const deleteConfirmName = (assistant: PublicAssistant) => assistant.name.trim() || publicAssistantUi.card.untitled;

/** A typed name matches when it is the same once trimmed (case counts: it is a deliberate act). */
export const typedNameMatches = (typed: string, name: string) => typed.trim() === name.trim();

export function useDeleteAssistantDetails(assistant: PublicAssistant) {
  const [sources, setSources] = useState<number | null | "failed">(null);
  const [typed, setTyped] = useState("");
  useEffect(() => {
    const controller = new AbortController();
    publicAssistantsApi
      .sources(assistant._id, controller.signal)
      .then((list) => setSources(list.length))
      .catch(() => !controller.signal.aborted && setSources("failed"));
    return () => controller.abort();
  }, [assistant._id]);
  const name = deleteConfirmName(assistant);
  const needsName = assistant.stats.totalSessions > 0;
  return { sources, typed, setTyped, name, needsName, ready: !needsName || typedNameMatches(typed, name) };
}

export function DeleteAssistantDetails({ assistant, details }: { assistant: PublicAssistant; details: ReturnType<typeof useDeleteAssistantDetails> }) {
  const id = useId();
  const { sources, typed, setTyped, name, needsName } = details;
  const unknown = sources === "failed" || assistant.stats.unavailable;
  return (
    <div className="mt-4 space-y-3 text-sm text-fg">
      <p className="font-medium">{U.deleteTitle(name)}</p>
      <p className="text-muted">{U.deleteIntro}</p>
      <ul className="list-disc space-y-1 pl-5">
        <li>{U.deleteDocuments(assistant.files.length)}</li>
        {typeof sources === "number" && sources > 0 && <li>{U.deleteSources(sources)}</li>}
        <li>{U.deleteConversations(assistant.stats.totalSessions)}</li>
        <li>{U.deleteKeys}</li>
      </ul>
      {unknown && <p className="text-xs text-muted">{U.deleteCountsUnknown}</p>}
      {needsName && (
        <div>
          <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-fg">
            {U.typeName(name)}
          </label>
          <input
            id={id}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
            className="w-full rounded-lg border border-line-strong bg-surface px-3 py-2 text-sm text-fg focus:border-accent focus:outline-none"
          />
        </div>
      )}
    </div>
  );
}
