/** /app/history: past conversations (the chat issue builds it). Until then: what the page is for. */
import { HistoryIcon } from "../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../components/ui/page";

export default function HistoryPage() {
  return (
    <PageContainer>
      <PageHeader title="History" description="Your past conversations, newest first. Open one to pick up where you left off." />
      <EmptyState icon={<HistoryIcon size={20} />} title="No conversations yet">
        <p>Conversations you have with Tala will be listed here. Chat history is not part of this version of Tala yet.</p>
      </EmptyState>
    </PageContainer>
  );
}
