/**
 * Integration Code (spec section 2), shared by the Get Code dialog and the assistant page's Code
 * tab: the snippet (the masked key replaced by the full key when known), a Copy button, where to
 * paste it, the same widget as an npm package or a React component, and the API keys (what the
 * publishable and secret keys are for, and the secret keys themselves: secret-keys-section.tsx),
 * and signed visitors (the identity secret and how to sign users: signed-visitors-section.tsx).
 */
import { useCallback, useEffect, useId, useState } from "react";
import { appMessages, publicAssistantMessages, publicAssistantUi, successMessages, type PublicAssistant } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { copyText } from "../../lib/clipboard";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { failureToast, usePublicAssistants } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { RetryAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { CopyIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { CodeBlock, SecretKeysSection } from "./secret-keys-section";
import { SignedVisitorsSection } from "./signed-visitors-section";
import { packageSamples, snippetWithFullKey } from "./snippet";

const L = publicAssistantUi.code;
const P = publicAssistantUi.page.npm;

type CodeState = { kind: "loading" } | { kind: "ready"; code: string } | { kind: "error"; message: string };

/** The npm package and the React component, with the snippet's key and host. */
function PackageSamples({ snippet }: { snippet: string }) {
  const headingId = useId();
  const samples = packageSamples(snippet);
  if (!samples) return null;
  return (
    <section aria-labelledby={headingId} className="space-y-3 border-t border-line pt-5">
      <h3 id={headingId} className="text-sm font-semibold text-fg">
        {P.title}
      </h3>
      <p className="text-xs text-muted">{P.text}</p>
      <CodeBlock label={P.npmLabel} text={samples.npm} />
      <CodeBlock label={P.reactLabel} text={samples.react} />
    </section>
  );
}

/** `onCopied`: after the first copy was recorded (the page re-reads the assistant for its checklist). */
export function IntegrationCodePanel({ assistant, onCopied }: { assistant: PublicAssistant; onCopied?: () => void }) {
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
      // The first-hour checklist's "install" step: the server keeps the first copy.
      if (assistant.config.onboarding.snippetCopiedAt === null) {
        void publicAssistantsApi.onboarding(assistant._id, "snippetCopied").then(() => onCopied?.(), () => {});
      }
    } catch {
      toast({ variant: "destructive", title: publicAssistantMessages.copyFailed });
    }
  };

  return (
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
      {state.kind === "ready" && <PackageSamples snippet={snippet} />}
      <SecretKeysSection assistant={assistant} />
      <SignedVisitorsSection assistant={assistant} />
    </div>
  );
}
