/**
 * A conversation's privacy actions in History (roles with `privacy.manage` only): Delete
 * conversation (asked first; gone from the list after), and for its visitor (signed: their id,
 * every conversation of theirs; anonymous: this conversation's id) Export visitor's data (the JSON
 * file) and Delete visitor's data (the question names how many conversations; the counts after).
 */
import { useId, useState } from "react";
import { privacyUi, visitorIdentityUi, type VisitorSession } from "../../../../contract";
import { saveBlob } from "../../lib/clipboard";
import { privacyApi } from "../../lib/privacy-api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { failureToast } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { useCan } from "../../stores/workspace";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { DownloadIcon, TrashIcon } from "../ui/icons";

const C = privacyUi.conversation;

/** Who the visitor of a conversation is, for the privacy calls: a signed visitor's id, else the conversation's. */
export const visitorIdOf = (s: Pick<VisitorSession, "sessionId" | "visitor">) => s.visitor?.id ?? s.sessionId;

type Asking = { kind: "conversation" } | { kind: "visitor"; conversations: number | null };

export function ConversationPrivacyActions({ assistantId, session, onDeleted }: { assistantId: string; session: VisitorSession; onDeleted: () => void }) {
  const allowed = useCan("privacy.manage");
  const titleId = useId();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [busy, setBusy] = useState<"export" | "delete" | "count" | null>(null);
  if (!allowed) return null;
  const visitorId = visitorIdOf(session);
  const who = session.visitor ? C.signedVisitor(session.visitor.name || session.visitor.email || session.visitor.id) : C.anonymousVisitor;

  const exportData = async () => {
    setBusy("export");
    try {
      const { blob, fileName } = await privacyApi.exportVisitor(assistantId, visitorId);
      saveBlob(blob, fileName);
      toast({ variant: "success", description: C.exported });
    } catch (err) {
      failureToast(err, C.exportFailed);
    } finally {
      setBusy(null);
    }
  };

  /** A signed visitor's conversations are counted first (History filtered by them); an anonymous one has this one. */
  const askVisitor = async () => {
    if (!session.visitor) return setAsking({ kind: "visitor", conversations: 1 });
    setBusy("count");
    try {
      const page = await publicAssistantsApi.chats(assistantId, 1, undefined, session.visitor.id);
      setAsking({ kind: "visitor", conversations: page.total });
    } catch {
      // The question still asks, without a number.
      setAsking({ kind: "visitor", conversations: null });
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    if (!asking) return;
    setBusy("delete");
    try {
      if (asking.kind === "conversation") {
        await privacyApi.deleteConversation(assistantId, session.sessionId);
        toast({ variant: "success", description: C.conversationDeleted });
      } else {
        const counts = await privacyApi.deleteVisitor(assistantId, visitorId);
        toast({ variant: "success", title: C.deleteVisitor, description: C.visitorDeleted(counts) });
      }
      setAsking(null);
      onDeleted();
    } catch (err) {
      failureToast(err, asking.kind === "conversation" ? C.deleteConversationFailed : C.deleteVisitorFailed);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby={titleId} className="mt-6 space-y-3 border-t border-line pt-4">
      <h3 id={titleId} className="text-sm font-semibold text-fg">
        {C.title}
      </h3>
      <p className="text-xs text-muted [overflow-wrap:anywhere]">
        {session.visitor ? `${visitorIdentityUi.detailId}: ${session.visitor.id}` : C.anonymousHint}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" busy={busy === "export"} disabled={busy !== null} onClick={() => void exportData()}>
          <DownloadIcon size={15} /> {C.exportVisitor}
        </Button>
        <Button variant="danger" size="sm" busy={busy === "count"} disabled={busy !== null} onClick={() => void askVisitor()}>
          <TrashIcon size={15} /> {C.deleteVisitor}
        </Button>
        <Button variant="danger" size="sm" disabled={busy !== null} onClick={() => setAsking({ kind: "conversation" })}>
          <TrashIcon size={15} /> {C.deleteConversation}
        </Button>
      </div>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => (open ? undefined : setAsking(null))}
        title={asking?.kind === "visitor" ? C.confirmDeleteVisitor.title : C.confirmDeleteConversation.title}
        description={
          asking?.kind === "visitor" ? C.confirmDeleteVisitor.description(who, asking.conversations, !!session.visitor) : C.confirmDeleteConversation.description
        }
        confirmLabel={asking?.kind === "visitor" ? C.confirmDeleteVisitor.confirm : C.confirmDeleteConversation.confirm}
        cancelLabel={C.cancel}
        busy={busy === "delete"}
        onConfirm={confirm}
      />
    </section>
  );
}
