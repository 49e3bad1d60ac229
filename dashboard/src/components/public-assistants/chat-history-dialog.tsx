/** Chat History for an assistant (spec sections 2 and 4): the history of chat-history-panel.tsx in a dialog. */
import { useState } from "react";
import { publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { Modal } from "../ui/dialog";
import { ChatHistoryPanel } from "./chat-history-panel";

const L = publicAssistantUi.history;

export function ChatHistoryDialog({ open, assistant, onOpenChange }: { open: boolean; assistant: PublicAssistant; onOpenChange: (open: boolean) => void }) {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={L.title} description={L.description(assistant.name)} size="xl">
      <ChatHistoryPanel assistant={assistant} selectedId={selected} onSelect={setSelected} />
    </Modal>
  );
}
