/**
 * /app/public-assistants (spec section 2): Back to Dashboard, the title, Create New Assistant, and the
 * tabs My Assistants (spinner, then the empty state or a grid of cards) and How It Works. The page
 * owns which dialog is open; the cards and dialogs do the rest. Each card also leads to the
 * assistant's own page (../public-assistant/), where the same panels sit in tabs.
 */
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { appMessages, appRoutes, publicAssistantUi, type PublicAssistant } from "../../../../../contract";
import { AssistantCard, type CardAction } from "../../../components/public-assistants/assistant-card";
import { AssistantFormDialog } from "../../../components/public-assistants/assistant-form-dialog";
import { assistantStatus } from "../../../components/public-assistants/budget-alerts";
import { BudgetBanners, OwnerBudgetControl, useBudgets } from "../../../components/public-assistants/budget-panel";
import { ChatHistoryDialog } from "../../../components/public-assistants/chat-history-dialog";
import { ConfirmActions, type PendingConfirmation } from "../../../components/public-assistants/confirm-actions";
import { IntegrationCodeDialog } from "../../../components/public-assistants/integration-code-dialog";
import { UploadDialog } from "../../../components/public-assistants/upload-dialog";
import { useProcessingPoll } from "../../../components/public-assistants/use-processing-poll";
import { Button, buttonClasses } from "../../../components/ui/button";
import { AlertIcon, ArrowLeftIcon, BotIcon, PlusIcon } from "../../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../../components/ui/page";
import { Spinner } from "../../../components/ui/spinner";
import { TabList, TabPanel, useTabIds } from "../../../components/ui/tabs";
import { usePublicAssistants } from "../../../stores/public-assistants";
import { useCan } from "../../../stores/workspace";
import { HowItWorks } from "./how-it-works";

const S = publicAssistantUi.screen;
type Tab = "mine" | "how";
const tabs = [
  { key: "mine", label: S.myAssistants },
  { key: "how", label: S.howItWorks },
] as const satisfies readonly { key: Tab; label: string }[];

type OpenDialog =
  | { kind: "form"; assistant: PublicAssistant | null }
  | { kind: "upload" | "code" | "history"; assistant: PublicAssistant }
  | { kind: "confirm"; pending: PendingConfirmation }
  | null;

export default function PublicAssistantsPage() {
  const [, navigate] = useLocation();
  const ids = useTabIds();
  const [tab, setTab] = useState<Tab>("mine");
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const status = usePublicAssistants((s) => s.status);
  const assistants = usePublicAssistants((s) => s.assistants);
  const load = usePublicAssistants((s) => s.load);

  useEffect(() => {
    void load();
    return () => usePublicAssistants.getState().reset();
  }, [load]);

  // Monthly budgets: banners at ≥ 80 % or paused, and the all-assistants budget.
  const { reload: reloadBudgets, ...budgetState } = useBudgets();
  const reload = useCallback(() => {
    void load({ quiet: true });
    reloadBudgets();
  }, [load, reloadBudgets]);
  useProcessingPoll(assistants, reload);

  const close = () => setDialog(null);
  const openCreate = () => setDialog({ kind: "form", assistant: null });
  // Creating, budgets and every card action but History need the role to manage assistants.
  const manage = useCan("assistants.manage");

  const onAction = (action: CardAction, assistant: PublicAssistant) => {
    if (action === "edit") setDialog({ kind: "form", assistant });
    else if (action === "delete" || action === "regenerate") setDialog({ kind: "confirm", pending: { kind: action, assistant } });
    else setDialog({ kind: action, assistant });
  };

  return (
    <PageContainer wide>
      <Link href={appRoutes.root} className={buttonClasses("ghost", "sm", "-ml-3 mb-4 text-muted hover:text-fg")}>
        <ArrowLeftIcon size={16} /> {S.backToDashboard}
      </Link>
      <PageHeader title={S.title} description={S.description}>
        {manage && (
          <Button onClick={openCreate}>
            <PlusIcon size={16} /> {S.createNew}
          </Button>
        )}
      </PageHeader>
      <BudgetBanners data={budgetState.data} className="mt-4" />

      <TabList items={tabs} value={tab} onChange={setTab} label={S.tabsLabel} ids={ids} className="mt-6 w-full sm:w-fit" />

      {tab === "mine" && (
        <TabPanel tabKey="mine" ids={ids} className="mt-6">
          {status === "loading" && (
            <div className="flex min-h-60 items-center justify-center text-faint" role="status">
              <Spinner size={24} className="text-accent" />
              <span className="sr-only">{appMessages.loading}</span>
            </div>
          )}
          {status === "error" && (
            <EmptyState icon={<AlertIcon size={20} />} title={S.loadErrorTitle}>
              <Button variant="secondary" className="mt-2" onClick={() => void load()}>
                {S.retry}
              </Button>
            </EmptyState>
          )}
          {status === "ready" && assistants.length === 0 && (
            <EmptyState icon={<BotIcon size={20} />} title={S.emptyTitle}>
              <p>{S.emptyText}</p>
              {manage && (
                <Button className="mt-3" onClick={openCreate}>
                  <PlusIcon size={16} /> {S.createFirst}
                </Button>
              )}
            </EmptyState>
          )}
          {status === "ready" && assistants.length > 0 && manage && (
            <OwnerBudgetControl data={budgetState.data} onSaved={budgetState.setData} />
          )}
          {status === "ready" && assistants.length > 0 && (
            <ul aria-label={S.listLabel} className="mt-5 grid grid-cols-1 gap-5 lg:grid-cols-2 2xl:grid-cols-3">
              {assistants.map((a) => (
                <li key={a._id} className="flex min-w-0">
                  <AssistantCard assistant={a} status={assistantStatus(a, budgetState.data)} onAction={onAction} />
                </li>
              ))}
            </ul>
          )}
        </TabPanel>
      )}
      {tab === "how" && (
        <TabPanel tabKey="how" ids={ids} className="mt-6">
          <HowItWorks />
        </TabPanel>
      )}

      {dialog?.kind === "form" && (
        <AssistantFormDialog
          open
          assistant={dialog.assistant}
          onOpenChange={(open) => (open ? undefined : close())}
          onSaved={(saved) => {
            close();
            // A new assistant: straight to its page, where the first-hour checklist waits.
            if (!dialog.assistant) navigate(appRoutes.publicAssistant(saved._id));
            else reload();
          }}
        />
      )}
      {dialog?.kind === "upload" && (
        <UploadDialog
          open
          assistant={dialog.assistant}
          onOpenChange={(open) => (open ? undefined : close())}
          onUploaded={(done) => {
            if (done) close();
            reload();
          }}
        />
      )}
      {dialog?.kind === "code" && <IntegrationCodeDialog open assistant={dialog.assistant} onOpenChange={(open) => (open ? undefined : close())} />}
      {dialog?.kind === "history" && <ChatHistoryDialog open assistant={dialog.assistant} onOpenChange={(open) => (open ? undefined : close())} />}
      {dialog?.kind === "confirm" && <ConfirmActions pending={dialog.pending} onDone={close} />}
    </PageContainer>
  );
}
