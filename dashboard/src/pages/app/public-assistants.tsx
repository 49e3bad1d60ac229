/**
 * /app/public-assistants: embeddable assistants (the Public Assistants issue builds the screen).
 * Until then: what the page is for, and how the feature works (spec section 2, How It Works).
 */
import { BotIcon } from "../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../components/ui/page";

const steps = [
  { title: "Create the assistant", text: "Name it, describe it, and set its limits and look." },
  { title: "Upload a knowledge base", text: "Add your documents: PDF, Word, Excel, CSV, Markdown, JSON, XML or plain text." },
  { title: "Get the integration code", text: "Paste the snippet into your website, before the closing body tag." },
  { title: "Visitors chat", text: "People on your site ask questions and the assistant answers from your documents." },
];

export default function PublicAssistantsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Public Assistants"
        description="Create AI chat widgets for your own website, give them your documents as a knowledge base, and review what visitors ask."
      />
      <EmptyState icon={<BotIcon size={20} />} title="Public Assistants are not available yet">
        <p>Managing Public Assistants is not part of this version of Tala yet. This is how it will work:</p>
      </EmptyState>
      <ol className="mt-6 grid gap-3 sm:grid-cols-2" aria-label="How it works">
        {steps.map((step, i) => (
          <li key={step.title} className="flex gap-3 rounded-xl border border-line bg-surface p-4">
            <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm font-semibold text-accent-text">
              {i + 1}
            </span>
            <div>
              <p className="text-sm font-medium text-fg">{step.title}</p>
              <p className="mt-0.5 text-sm text-muted">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </PageContainer>
  );
}
