/**
 * Integration Code (spec section 2): the code of integration-code-panel.tsx in a dialog, with the
 * "Test your knowledge base" search below it, so the owner sees which passages of their documents
 * the assistant would answer from.
 */
import { publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { Modal } from "../ui/dialog";
import { IntegrationCodePanel } from "./integration-code-panel";
import { KnowledgeSearch } from "./knowledge-search";

const L = publicAssistantUi.code;

export function IntegrationCodeDialog({ open, assistant, onOpenChange }: { open: boolean; assistant: PublicAssistant; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={L.title} description={L.description} size="lg">
      <div className="space-y-6">
        <IntegrationCodePanel assistant={assistant} />
        <KnowledgeSearch assistant={assistant} />
      </div>
    </Modal>
  );
}
