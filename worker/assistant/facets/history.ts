import { RpcTarget } from "cloudflare:workers";
import type { ChatHistoryResponse, VisitorSession } from "../../../contract";
import type { KnowledgeFileRecord } from "../../knowledge/knowledge-index";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { KnowledgeStore } from "../knowledge-store";
import { whenOpen } from "./run";

type ExportCursor = { startedAt: number; id: string };

/**
 * `hub.history()`: the owner's view of the visitor conversations (the caller checked ownership
 * in D1). Every method answers `gone` once the assistant was deleted.
 */
export class HistoryFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /** One visitor session with its messages, open or not; null when it is not here. */
  session(sessionId: string): Promise<VisitorSession | null | Gone> {
    return whenOpen(this.#core, (opened) => {
      const row = opened.store.session(sessionId);
      return row ? (this.#core.withMessages(opened, [row])[0] ?? null) : null;
    });
  }

  /** A page of the visitor history, newest activity first (`user`: one signed visitor's). */
  list(input: { page: number; limit: number; user?: string | undefined }): Promise<ChatHistoryResponse | Gone> {
    return whenOpen(this.#core, (opened) => {
      const { store } = opened;
      const total = store.countSessions(input.user);
      return {
        sessions: this.#core.withMessages(opened, store.sessionsByActivity(input.page, input.limit, input.user)),
        totalPages: Math.max(1, Math.ceil(total / input.limit)),
        currentPage: input.page,
        total,
      };
    });
  }

  /** Sessions oldest first after the cursor, with their messages (the export's pages). */
  exportPage(input: { after: ExportCursor | null; limit: number }): Promise<{ sessions: VisitorSession[]; next: ExportCursor | null } | Gone> {
    return whenOpen(this.#core, (opened) => {
      const rows = opened.store.sessionsAfter(input.after, input.limit);
      const last = rows[rows.length - 1];
      return { sessions: this.#core.withMessages(opened, rows), next: last ? { startedAt: last.startedAt, id: last.id } : null };
    });
  }

  count(): Promise<number | Gone> {
    return whenOpen(this.#core, ({ store }) => store.countSessions());
  }

  /** What the owner's assistant card shows: its files and how many visitor sessions it has (one call per card). */
  cardStats(): Promise<{ files: KnowledgeFileRecord[]; sessions: number } | Gone> {
    return whenOpen(this.#core, ({ store }) => ({ files: new KnowledgeStore(this.#core.storage).files(), sessions: store.countSessions() }));
  }
}
