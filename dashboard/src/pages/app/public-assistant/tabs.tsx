/**
 * The tabs of an assistant's page, in order. A tab is one entry: its key (the `?tab=` of the
 * address), its label (contract/messages.ts), and what it shows given the page's context.
 *
 * Sections of the Knowledge tab are entries of `knowledgeSections` (components/public-assistants/knowledge-panel.tsx).
 */
import type { ReactNode } from "react";
import {
  can,
  inboxUi,
  insightsUi,
  leadsUi,
  publicAssistantUi,
  webhooksUi,
  type KnowledgeFile,
  type PublicAssistant,
  type TeamPermission,
  type TeamRole,
} from "../../../../../contract";
import { ChatHistoryPanel } from "../../../components/public-assistants/chat-history-panel";
import type { PendingConfirmation } from "../../../components/public-assistants/confirm-actions";
import { InboxPanel } from "../../../components/public-assistants/inbox/inbox-panel";
import { InsightsPanel } from "../../../components/public-assistants/insights-panel";
import { IntegrationCodePanel } from "../../../components/public-assistants/integration-code-panel";
import { KnowledgePanel } from "../../../components/public-assistants/knowledge-panel";
import { LeadsPanel } from "../../../components/public-assistants/leads/leads-panel";
import { PlaygroundPanel } from "../../../components/public-assistants/playground-panel";
import { SettingsPanel } from "../../../components/public-assistants/settings-panel";
import { WebhooksPanel } from "../../../components/public-assistants/webhooks/webhooks-panel";

const T = publicAssistantUi.page.tabs;

export interface AssistantTabContext {
  assistant: PublicAssistant;
  /** Reads the assistant again (after an upload, a save). */
  reload: () => void;
  /** Asks for one of the confirmed actions (Delete, Regenerate Key, removing a file), then runs it. */
  confirm: (pending: PendingConfirmation) => void;
  /** Opens one visitor conversation: the History tab with `?session=<id>` (fetched when it is not on the page shown). */
  openConversation: (sessionId: string) => void;
  /** The conversation open in the History or Inbox tab, from the address. */
  session: string | null;
  /** The tab on screen (a panel stays mounted while another is shown). */
  tab: string;
  /** Opens or closes (null) a History conversation in place (the address is replaced, not pushed). */
  selectSession: (sessionId: string | null) => void;
  /** Opens or closes (null) an Inbox conversation (pushed: Back returns to the list). */
  selectInboxSession: (sessionId: string | null) => void;
}

export interface AssistantTab {
  key: string;
  label: string;
  /** Shown to a role with any of these permissions in the assistant's workspace (contract `teamPermissions`). */
  permissions: readonly TeamPermission[];
  render: (context: AssistantTabContext) => ReactNode;
}

export const assistantTabs = [
  { key: "playground", label: T.playground, permissions: ["assistants.manage"], render: ({ assistant, reload }) => <PlaygroundPanel assistant={assistant} onAnswered={reload} /> },
  {
    key: "knowledge",
    label: T.knowledge,
    // Agents edit curated answers here (the rest of the tab is the managers').
    permissions: ["assistants.manage", "qa.manage"],
    render: ({ assistant, reload, confirm }) => (
      <KnowledgePanel assistant={assistant} reload={reload} onRemoveFile={(file: KnowledgeFile) => confirm({ kind: "deleteFile", assistant, file })} />
    ),
  },
  { key: "settings", label: T.settings, permissions: ["assistants.manage"], render: ({ assistant, reload, confirm }) => <SettingsPanel assistant={assistant} onSaved={reload} onConfirm={confirm} /> },
  {
    key: "code",
    label: T.code,
    permissions: ["assistants.manage"],
    // The panel's sections are h3s (as in the Get Code dialog, under its h2 title): the page gives them their h2.
    render: ({ assistant, reload }) => (
      <>
        <h2 className="sr-only">{T.code}</h2>
        <IntegrationCodePanel assistant={assistant} onCopied={reload} />
      </>
    ),
  },
  {
    key: "inbox",
    label: inboxUi.tab,
    permissions: ["inbox.reply"],
    render: ({ assistant, tab, session, selectInboxSession }) => (
      <InboxPanel assistant={assistant} shown={tab === "inbox"} session={tab === "inbox" ? session : null} selectSession={selectInboxSession} />
    ),
  },
  {
    key: "history",
    label: T.history,
    permissions: ["history.read"],
    render: ({ assistant, tab, session, selectSession }) => (
      <ChatHistoryPanel assistant={assistant} selectedId={tab === "history" ? session : null} onSelect={selectSession} />
    ),
  },
  { key: "leads", label: leadsUi.tab, permissions: ["leads.read"], render: ({ assistant }) => <LeadsPanel assistant={assistant} /> },
  {
    key: "insights",
    label: insightsUi.title,
    permissions: ["insights.read"],
    render: ({ assistant, openConversation }) => <InsightsPanel assistantId={assistant._id} onOpenConversation={openConversation} />,
  },
  { key: "webhooks", label: webhooksUi.tab, permissions: ["assistants.manage"], render: ({ assistant }) => <WebhooksPanel assistant={assistant} /> },
] as const satisfies readonly AssistantTab[];

export type AssistantTabKey = (typeof assistantTabs)[number]["key"];

/** The tab an address without `?tab=` shows. */
export const defaultAssistantTab: AssistantTabKey = "knowledge";
export const assistantTabKeys: readonly AssistantTabKey[] = assistantTabs.map((t) => t.key);

/** The tabs a role sees, and the one an address without `?tab=` shows it (managers: Knowledge; agents: Inbox; viewers: History). */
export function tabsForRole(role: TeamRole | null) {
  const tabs = assistantTabs.filter((t) => t.permissions.some((p) => can(role, p)));
  const keys: AssistantTabKey[] = tabs.map((t) => t.key);
  const fallback: AssistantTabKey = can(role, "assistants.manage")
    ? defaultAssistantTab
    : (keys.find((k) => k === "inbox") ?? keys.find((k) => k === "history") ?? keys[0] ?? defaultAssistantTab);
  return { tabs, keys, fallback };
}
