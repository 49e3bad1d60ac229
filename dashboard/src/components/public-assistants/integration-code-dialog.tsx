/**
 * Integration Code (spec section 2): the snippet (the masked key replaced by the full key when known),
 * a Copy button, where to paste it, the API keys (what the publishable and secret keys are for, and
 * the secret keys themselves: secret-keys-section.tsx), and a "Test your knowledge base" search so
 * the owner sees which passages of their documents the assistant would answer from.
 */
import { useCallback, useEffect, useState } from "react";
import { appMessages, publicAssistantMessages, publicAssistantUi, successMessages, type PublicAssistant } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { copyText } from "../../lib/clipboard";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { failureToast, usePublicAssistants } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { RetryAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { CopyIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { KnowledgeSearch } from "./knowledge-search";
import { SecretKeysSection } from "./secret-keys-section";
import { snippetWithFullKey } from "./snippet";

const L = publicAssistantUi.code;

type CodeState = { kind: "loading" } | { kind: "ready"; code: string } | { kind: "error"; message: string };

export function IntegrationCodeDialog({ open, assistant, onOpenChange }: { open: boolean; assistant: PublicAssistant; onOpenChange: (open: boolean) => void }) {
  const fullKey = usePublicAssistants((s) => s.fullKeys[assistant._id]);
  const setFullKey = usePublicAssistants((s) => s.setFullKey);
  const [state, setState] = useState<CodeState>({ kind: "loading" });

  const load = useCallback(
    async (signal?: { cancelled: boolean }) => {
      setState({ kind: "loading" });
      try {
        const res = await publicAssistantsApi.integrationCode(assistant._id);
        if (signal?.cancelled) return;
        setFullKey(assistant._id, res.apiKey);
        setState({ kind: "ready", code: res.integrationCode });
      } catch (err) {
        if (signal?.cancelled) return;
        setState({ kind: "error", message: errorMessage(err, publicAssistantMessages.integrationCodeFailed) });
        failureToast(err, publicAssistantMessages.integrationCodeFailed);
      }
    },
    [assistant._id, setFullKey],
  );

  useEffect(() => {
    const signal = { cancelled: false };
    void load(signal);
    return () => {
      signal.cancelled = true;
    };
  }, [load]);

  const snippet = state.kind === "ready" ? snippetWithFullKey(state.code, assistant.apiKey, fullKey) : "";

  const copy = async () => {
    try {
      await copyText(snippet);
      toast({ variant: "success", description: successMessages.contentCopied });
    } catch {
      toast({ variant: "destructive", title: publicAssistantMessages.copyFailed });
    }
  };

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={L.title} description={L.description} size="lg">
      <div className="space-y-6">
        <section className="space-y-3">
          <p className="text-sm text-fg">{L.instructions}</p>
          {state.kind === "loading" && (
            <div className="flex h-24 items-center justify-center rounded-lg border border-line bg-subtle text-faint" role="status">
              <Spinner size={20} />
              <span className="sr-only">{appMessages.loading}</span>
            </div>
          )}
          {state.kind === "error" && <RetryAlert message={state.message} onRetry={() => void load()} />}
          {state.kind === "ready" && (
            <>
              <div className="relative">
                <pre
                  aria-label={L.snippetLabel}
                  tabIndex={0}
                  className="overflow-x-auto rounded-lg border border-line bg-neutral-950 px-4 py-3.5 pr-24 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-neutral-100 dark:bg-black"
                >
                  <code>{snippet}</code>
                </pre>
                <Button size="sm" variant="secondary" className="absolute top-2 right-2" onClick={() => void copy()}>
                  <CopyIcon size={14} /> {L.copy}
                </Button>
              </div>
              <p className="text-xs text-muted">{L.keyNote}</p>
            </>
          )}
        </section>
        <SecretKeysSection assistant={assistant} />
        <KnowledgeSearch assistant={assistant} />
      </div>
    </Modal>
  );
}
