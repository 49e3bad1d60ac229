/**
 * /app/public-assistants/{id}: one assistant's own page, reached from its card. Header:
 * back to the list, the name, Active/Inactive, the description and the publishable key (copy,
 * reveal). Then the tabs of tabs.tsx, the one shown named by `?tab=` (Knowledge by default), so
 * each tab has an address and the browser's Back returns to the previous one. A tab's panel stays
 * mounted once opened (a Playground conversation survives a look at the Knowledge tab).
 */
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation, useParams, useSearch } from "wouter";
import { appMessages, appRoutes, can, inboxUi, publicAssistantUi, type BudgetsResponse, type PublicAssistant } from "../../../../../contract";
import { ApiKeyField } from "../../../components/public-assistants/api-key-field";
import { StatusBadge } from "../../../components/public-assistants/assistant-card";
import { assistantStatus } from "../../../components/public-assistants/budget-alerts";
import { BudgetBanners, useBudgets } from "../../../components/public-assistants/budget-panel";
import { ConfirmActions, type PendingConfirmation } from "../../../components/public-assistants/confirm-actions";
import { OnboardingChecklist } from "../../../components/public-assistants/onboarding-checklist";
import { useProcessingPoll } from "../../../components/public-assistants/use-processing-poll";
import { Button, buttonClasses } from "../../../components/ui/button";
import { AlertIcon, ArrowLeftIcon, BotIcon } from "../../../components/ui/icons";
import { EmptyState, PageContainer } from "../../../components/ui/page";
import { Spinner } from "../../../components/ui/spinner";
import { TabList, TabPanel, useTabIds } from "../../../components/ui/tabs";
import { ApiError } from "../../../lib/api";
import { publicAssistantsApi } from "../../../lib/public-assistants-api";
import { useInboxSummary } from "../../../stores/inbox";
import { failureToast, usePublicAssistants } from "../../../stores/public-assistants";
import { useWorkspaceRole } from "../../../stores/workspace";
import { assistantPageHref, readAssistantPageParams } from "./page-url";
import { assistantTabKeys, defaultAssistantTab, tabsForRole, type AssistantTabContext, type AssistantTabKey } from "./tabs";

const P = publicAssistantUi.page;
const C = publicAssistantUi.card;

type Loaded = { status: "loading" } | { status: "ready"; assistant: PublicAssistant } | { status: "missing" } | { status: "error" };

/** The assistant, read by id; `reload` reads it again keeping what is on screen meanwhile. */
function useAssistant(id: string) {
  const [state, setState] = useState<Loaded>({ status: "loading" });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    publicAssistantsApi
      .get(id, controller.signal)
      .then((assistant) => setState({ status: "ready", assistant }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 404) return setState({ status: "missing" });
        // A failed re-read keeps the assistant on screen; only a first read shows the error state.
        setState((s) => (s.status === "ready" ? s : { status: "error" }));
        failureToast(err, P.loadError);
      });
    return () => controller.abort();
  }, [id, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { state, reload, retry: () => (setState({ status: "loading" }), reload()) };
}

function Header({ assistant, budgets, showKey }: { assistant: PublicAssistant; budgets: BudgetsResponse | null; showKey: boolean }) {
  return (
    <header className="flex flex-col gap-4 border-b border-line pb-6 lg:flex-row lg:items-end lg:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <span
          aria-hidden="true"
          className="mt-2.5 size-3 shrink-0 rounded-full ring-2 ring-line"
          style={{ backgroundColor: assistant.config.customization.primaryColor }}
        />
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h1 className={`min-w-0 text-2xl font-semibold tracking-tight break-words ${assistant.name ? "text-fg" : "text-muted italic"}`}>
              {assistant.name || C.untitled}
            </h1>
            <StatusBadge status={assistantStatus(assistant, budgets)} />
          </div>
          <p className={`mt-1.5 max-w-2xl text-sm ${assistant.description ? "text-muted" : "text-faint italic"}`}>{assistant.description || C.noDescription}</p>
        </div>
      </div>
      {showKey && (
        <div className="w-full shrink-0 lg:w-96">
          <ApiKeyField assistant={assistant} />
        </div>
      )}
    </header>
  );
}

export default function PublicAssistantPage() {
  const { id = "" } = useParams<{ id: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const ids = useTabIds("assistant");
  const { state, reload, retry } = useAssistant(id);
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  // The tabs of the caller's role in the workspace (an agent lands on the Inbox, a viewer on History).
  const role = useWorkspaceRole();
  const manage = can(role, "assistants.manage");
  const visible = tabsForRole(role);
  const { tab, session } = readAssistantPageParams<AssistantTabKey>(search, visible.keys, visible.fallback);
  // Panels opened once stay mounted (hidden) while another tab is shown.
  const [opened, setOpened] = useState<ReadonlySet<AssistantTabKey>>(() => new Set([tab]));
  if (!opened.has(tab)) setOpened(new Set([...opened, tab]));

  // Monthly budgets: this assistant's and the all-assistants one, read again after a change here.
  const { reload: reloadBudgets, data: budgetData } = useBudgets();
  const reloadWithBudgets = useCallback(() => {
    reload();
    reloadBudgets();
  }, [reload, reloadBudgets]);

  // Full keys never outlive the screen (as on the list).
  useEffect(() => () => usePublicAssistants.getState().reset(), []);
  useProcessingPoll(state.status === "ready" ? [state.assistant] : [], reload);

  const selectSession = useCallback(
    (sessionId: string | null) => navigate(assistantPageHref(id, { tab: "history", session: sessionId }), { replace: true }),
    [id, navigate],
  );
  const selectInboxSession = useCallback(
    (sessionId: string | null) => navigate(assistantPageHref(id, { tab: "inbox", session: sessionId })),
    [id, navigate],
  );
  const needsPerson = useInboxSummary((s) => s.needsPerson[id] ?? 0);
  const openConversation = useCallback((sessionId: string) => navigate(assistantPageHref(id, { tab: "history", session: sessionId })), [id, navigate]);

  const back = (
    <Link href={appRoutes.publicAssistants} className={buttonClasses("ghost", "sm", "-ml-3 mb-4 text-muted hover:text-fg")}>
      <ArrowLeftIcon size={16} /> {P.back}
    </Link>
  );

  if (state.status !== "ready") {
    return (
      <PageContainer wide>
        {back}
        {state.status === "loading" && (
          <div className="flex min-h-60 items-center justify-center text-faint" role="status">
            <Spinner size={24} className="text-accent" />
            <span className="sr-only">{appMessages.loading}</span>
          </div>
        )}
        {state.status === "missing" && (
          <EmptyState icon={<BotIcon size={20} />} title={P.notFound}>
            <Link href={appRoutes.publicAssistants} className={buttonClasses("secondary", "md", "mt-2")}>
              {P.back}
            </Link>
          </EmptyState>
        )}
        {state.status === "error" && (
          <EmptyState icon={<AlertIcon size={20} />} title={P.loadError}>
            <Button variant="secondary" className="mt-2" onClick={retry}>
              {publicAssistantUi.screen.retry}
            </Button>
          </EmptyState>
        )}
      </PageContainer>
    );
  }

  const { assistant } = state;
  const context: AssistantTabContext = { assistant, reload: reloadWithBudgets, confirm: setPending, openConversation, session, tab, selectSession, selectInboxSession };
  const tabItems = visible.tabs.map((t) => (t.key === "inbox" ? { ...t, badge: { count: needsPerson, label: inboxUi.badge(needsPerson) } } : t));

  return (
    <PageContainer wide>
      {back}
      <Header assistant={assistant} budgets={budgetData} showKey={manage} />
      <BudgetBanners data={budgetData} assistantId={assistant._id} className="mt-4" />
      {manage && (
        <OnboardingChecklist
          assistant={assistant}
          onOpenTab={(key) => navigate(assistantPageHref(id, { tab: assistantTabKeys.find((k) => k === key) ?? defaultAssistantTab }))}
          onChanged={reload}
        />
      )}
      <TabList
        items={tabItems}
        value={tab}
        onChange={(key) => navigate(assistantPageHref(id, { tab: key }))}
        label={P.tabsLabel}
        ids={ids}
        scrollable
        className="mt-6 w-full sm:w-fit"
      />
      {visible.tabs
        .filter((t) => opened.has(t.key))
        .map((t) => (
          <TabPanel key={t.key} tabKey={t.key} ids={ids} hidden={t.key !== tab} className="mt-6">
            {t.render(context)}
          </TabPanel>
        ))}
      {pending && (
        <ConfirmActions
          pending={pending}
          onDone={() => setPending(null)}
          onChanged={({ kind, ok }) => (kind === "delete" && ok ? navigate(appRoutes.publicAssistants) : reload())}
        />
      )}
    </PageContainer>
  );
}
