import { RpcTarget } from "cloudflare:workers";
import { privacyLimits, type VisitorSession } from "../../../contract";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { afterDeletion } from "../hub-privacy";
import type { LeadCursor, SavedLead } from "../lead-store";
import { PrivacyStore, type DeletionCounts, type SessionCursor } from "../privacy-store";
import { whenOpen } from "./run";

/**
 * `hub.privacy()`: the owner deletes one conversation or everything of one visitor, and exports a
 * visitor's data (the caller checked the owner in D1). A visitor is a signed visitor's `sub`, or
 * the id of an anonymous visitor's conversation (privacy-store.ts `visitorKind`). Deletions are
 * idempotent; the deleted conversations' open widget sockets close (hub-privacy.ts). The
 * retention pass is the object's `retention` alarm (hub-privacy.ts). Every method answers `gone`
 * once the assistant was deleted.
 */
export class PrivacyFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /** One conversation and everything that points at it, its leads included; zeros when it is not here (deleted already). */
  deleteConversation(sessionId: string): Promise<DeletionCounts | Gone> {
    return whenOpen(this.#core, async () => {
      const deleted = new PrivacyStore(this.#core.storage).deleteConversations([sessionId], { leads: true });
      await afterDeletion(this.#core, [sessionId]);
      return deleted;
    });
  }

  /**
   * One batch of a visitor's deletion: up to `visitorBatchSessions` of their conversations with
   * their leads; once none is left, the leads no conversation holds any more. `done`: nothing of
   * the visitor is left (the caller calls again until then, so the object stays free between batches).
   */
  deleteVisitorBatch(visitorId: string): Promise<{ deleted: DeletionCounts; done: boolean } | Gone> {
    return whenOpen(this.#core, async () => {
      const store = new PrivacyStore(this.#core.storage);
      const kind = store.visitorKind(visitorId);
      const ids = store.visitorSessionIds(visitorId, kind, privacyLimits.visitorBatchSessions);
      const deleted = store.deleteConversations(ids, { leads: true });
      const done = ids.length < privacyLimits.visitorBatchSessions;
      if (done) deleted.deletedLeads += store.deleteVisitorLeads(visitorId, kind);
      if (ids.length) await afterDeletion(this.#core, ids);
      return { deleted, done };
    });
  }

  /** Whether anything of the visitor is stored (a conversation or a lead). */
  hasVisitor(visitorId: string): Promise<boolean | Gone> {
    return whenOpen(this.#core, () => new PrivacyStore(this.#core.storage).hasVisitor(visitorId));
  }

  /** The export's page of the visitor's conversations, oldest first, with all their messages (as History shows them). */
  exportConversations(input: { visitorId: string; after: SessionCursor | null; limit: number }): Promise<{ sessions: VisitorSession[]; next: SessionCursor | null } | Gone> {
    return whenOpen(this.#core, (opened) => {
      const privacy = new PrivacyStore(this.#core.storage);
      const page = privacy.visitorSessionsAfter(input.visitorId, privacy.visitorKind(input.visitorId), input.after, input.limit);
      const rows = page.flatMap((p) => opened.store.session(p.id) ?? []);
      const last = page.at(-1);
      return { sessions: this.#core.withMessages(opened, rows), next: last && page.length === input.limit ? last : null };
    });
  }

  /** The export's page of the visitor's leads, newest first. */
  exportLeads(input: { visitorId: string; after: LeadCursor | null; limit: number }): Promise<{ leads: SavedLead[]; next: LeadCursor | null } | Gone> {
    return whenOpen(this.#core, () => {
      const privacy = new PrivacyStore(this.#core.storage);
      return privacy.visitorLeadsAfter(input.visitorId, privacy.visitorKind(input.visitorId), input.after, input.limit);
    });
  }
}
