/** /app/new-chat: the chat screen (built by the chat issue). Until then: what the page is for. */
import { Link } from "wouter";
import { ASSISTANT_NAME, publicRoutes } from "../../../../contract";
import { ChatPlusIcon } from "../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../components/ui/page";
import { useAuth } from "../../stores/auth";

export default function NewChatPage() {
  const isGuest = useAuth((s) => s.isGuest);
  return (
    <PageContainer>
      <PageHeader
        title="New Chat"
        description={`Ask ${ASSISTANT_NAME} anything. Replies appear as they are written, and each conversation is saved to your history.`}
      />
      <EmptyState icon={<ChatPlusIcon size={20} />} title="Chat is not available yet">
        <p>This is where you will start a conversation with {ASSISTANT_NAME}. The chat screen is not part of this version of Tala yet.</p>
        {isGuest && (
          <p>
            You are using Tala as a guest.{" "}
            <Link href={publicRoutes.register} className="font-medium text-accent-text hover:underline">
              Create an account
            </Link>{" "}
            to keep your history and use projects and Public Assistants.
          </p>
        )}
      </EmptyState>
    </PageContainer>
  );
}
