/**
 * What goes with a deleted assistant, named in its confirmation: its documents, website sources,
 * conversations, leads and webhooks (those three lists read when the question opens; a count that
 * could not be read is left out and said so), and, when it has had conversations, its name typed to
 * confirm (`useDeleteAssistantDetails(...).ready`).
 */
import { useEffect, useId, useState } from "react";
import { assistantLifecycleUi as U, publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { leadsApi } from "../../lib/leads-api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { webhooksApi } from "../../lib/webhooks-api";

type Count = number | null | "failed";

/** A count read when the question opens: null while it loads, "failed" when it could not be read. */
function useCount(read: (signal: AbortSignal) => Promise<number>, key: string): Count {
  const [count, setCount] = useState<Count>(null);
  useEffect(() => {
    const controller = new AbortController();
    read(controller.signal)
      .then(setCount)
      .catch(() => !controller.signal.aborted && setCount("failed"));
    return () => controller.abort();
    // `read` is made anew each render; the assistant's id (key) is what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return count;
}

/** The name the owner types (the page's "Untitled assistant" for a nameless one). */
export const deleteConfirmName = (assistant: PublicAssistant) => assistant.name.trim() || publicAssistantUi.card.untitled;

/** A typed name matches when it is the same once trimmed (case counts: it is a deliberate act). */
export const typedNameMatches = (typed: string, name: string) => typed.trim() === name.trim();

export function useDeleteAssistantDetails(assistant: PublicAssistant) {
  const id = assistant._id;
  const sources = useCount(async (signal) => (await publicAssistantsApi.sources(id, signal)).length, id);
  const leads = useCount(async (signal) => (await leadsApi.list(id, "", 1, signal)).total, id);
  const webhooks = useCount(async (signal) => (await webhooksApi.list(id, signal)).webhooks.length, id);
  const [typed, setTyped] = useState("");
  const name = deleteConfirmName(assistant);
  const needsName = assistant.stats.totalSessions > 0;
  return { sources, leads, webhooks, typed, setTyped, name, needsName, ready: !needsName || typedNameMatches(typed, name) };
}

export function DeleteAssistantDetails({ assistant, details }: { assistant: PublicAssistant; details: ReturnType<typeof useDeleteAssistantDetails> }) {
  const id = useId();
  const { sources, leads, webhooks, typed, setTyped, name, needsName } = details;
  const unknown = sources === "failed" || leads === "failed" || webhooks === "failed" || assistant.stats.unavailable;
  const some = (n: Count): n is number => typeof n === "number" && n > 0;
  return (
    <div className="mt-4 space-y-3 text-sm text-fg">
      <p className="font-medium">{U.deleteTitle(name)}</p>
      <p className="text-muted">{U.deleteIntro}</p>
      <ul className="list-disc space-y-1 pl-5">
        <li>{U.deleteDocuments(assistant.files.length)}</li>
        {some(sources) && <li>{U.deleteSources(sources)}</li>}
        <li>{U.deleteConversations(assistant.stats.totalSessions)}</li>
        {some(leads) && <li>{U.deleteLeads(leads)}</li>}
        {some(webhooks) && <li>{U.deleteWebhooks(webhooks)}</li>}
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
