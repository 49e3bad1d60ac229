import { Server } from "partyserver";
import {
  guestSession,
  isGuestRoomId,
  type BudgetUsage,
  type Chat,
  type ChatListResponse,
  type Project,
  type InboxFrameData,
  type RemainingMessages,
  type ServerFrame,
  type TeamChangedData,
  type UserSettings,
} from "../../contract";
import { monthKey } from "../budgets/budget-math";
import { deliverBudgetNotices } from "../budgets/budget-notices";
import { OwnerBudget, type OwnerBudgetSetting } from "../budgets/owner-budget";
import { tellOwnerAssistants } from "../budgets/owner-pause";
import { ActiveReplies } from "../chat/active-replies";
import { importLegacyUserData, LEGACY_IMPORT_MARKER } from "../chat/legacy-import";
import { roomProjects, type ProjectChanges } from "../chat/room-projects";
import { RoomStore, type ChatChanges, type ChatDetailPage, type ListChatsInput, type MessageCursor } from "../chat/room-store";
import type { RoomIdentity } from "../chat/room-identity";
import { TokenRevocations } from "../chat/token-revocations";
import { UserLimits } from "../chat/user-limits";
import { RoomAdmissionLog } from "../chat/user-limits-store";
import type { Env } from "../env";
import { AlarmScheduler } from "./alarm-scheduler";

/** room_state marker: the account is deleted but its workspace lives on under another owner (its budget stays). */
const WORKSPACE_KEPT = "workspace-kept";

/**
 * The storage half of a chat room (ChatRoom, chat-room.ts, is the realtime half): the room's
 * own SQLite (chat/room-store.ts) holds a signed-in user's chats, messages, projects and settings,
 * or a guest's chats, and this class serves them to the REST routes through the RPCs below, so
 * neither a turn nor the history touches D1. The first use of a user's room moves their legacy
 * D1 rows in (chat/legacy-import.ts); a deleted account's room finds and writes nothing more.
 */
export abstract class ChatRoomData extends Server<Env & Cloudflare.Env> {
  protected readonly active = new ActiveReplies();
  protected readonly store = new RoomStore(this.ctx.storage);
  /** The move of the user's legacy D1 rows, while it runs (chat/legacy-import.ts). */
  private importing: Promise<number> | null = null;
  private imported = false;
  private revocationsInstance: TokenRevocations | undefined;
  private userLimitsInstance: UserLimits | undefined;
  /**
   * The room's named alarms: a user's room retries its budget e-mails, a guest's room erases its
   * chats after a day idle (ChatRoom.onAlarm runs them).
   */
  protected readonly alarms = new AlarmScheduler<"budget-notices" | "guest-expiry">(this.ctx.storage, {
    "budget-notices": () => this.deliverBudgetNotices(),
    "guest-expiry": () => this.guestExpired(),
  });

  protected get revocations(): TokenRevocations {
    this.revocationsInstance ??= new TokenRevocations(this.ctx.storage);
    return this.revocationsInstance;
  }

  /** A signed-in user's replies at once, messages a minute, and daily quota until the e-mail is verified. */
  private get userLimits(): UserLimits {
    this.userLimitsInstance ??= new UserLimits(new RoomAdmissionLog(this.store));
    return this.userLimitsInstance;
  }

  /**
   * A signed-in user's turn (send-message, regenerate) through their limits: the `admit` of
   * runTurn and runRegenerate, called once the turn's chat is reserved (so `this.active` counts
   * it) and before anything is saved. An unverified account's messages left go to every tab.
   * Undefined for a guest (their quota is counted by chat/guest-quota.ts).
   */
  protected admitUserTurn(identity: RoomIdentity): (() => string | null) | undefined {
    if (identity.kind !== "user") return undefined;
    return () => {
      const { refusal, remaining } = this.userLimits.admit({ running: this.active.all().length, emailVerified: identity.emailVerified === true, now: Date.now() });
      if (remaining) this.broadcastFrame({ event: "remaining-messages", data: remaining });
      return refusal;
    };
  }

  /** An unverified account's messages left today, for a socket that opens; null once verified. */
  protected userRemaining(identity: Extract<RoomIdentity, { kind: "user" }>): RemainingMessages | null {
    return this.userLimits.remaining({ emailVerified: identity.emailVerified === true, now: Date.now() });
  }

  /**
   * RPC after the account's e-mail was verified (services/realtime/lift-unverified-quota.ts): the
   * daily quota is lifted at once, for the sockets already open too (their identity is older).
   */
  async emailVerified(): Promise<void> {
    if (this.isGuestRoom || (await this.revocations.isAccountClosed())) return;
    this.userLimits.emailVerified(Date.now());
  }

  /**
   * RPC from the worker or an assistant's object: something happened in one of the owner's
   * assistants' conversations (schemas/handoff.ts); every socket of the room is told. A guest's
   * room owns no assistant.
   */
  async relayInbox(data: InboxFrameData): Promise<void> {
    if (this.isGuestRoom) return;
    this.broadcastFrame({ event: "inbox", data });
  }

  /** RPC after the user's membership or role in a workspace changed: the dashboard re-reads its workspaces. */
  async teamChanged(data: TeamChangedData): Promise<void> {
    if (this.isGuestRoom) return;
    this.broadcastFrame({ event: "team-changed", data });
  }

  /** Every socket and HTTP frame stream of the room gets the frame (ChatRoom). */
  protected abstract broadcastFrame(frame: ServerFrame): void;

  protected get isGuestRoom() {
    return isGuestRoomId(this.name);
  }

  /**
   * The room's store, once it holds everything of its user: the first use of a signed-in user's
   * room moves their legacy D1 rows in (once in the room's life; later wakes read only the room's
   * marker). Concurrent callers wait for the same move; a failed move is tried again by the next.
   */
  protected async openStore(): Promise<RoomStore> {
    if (this.imported || this.isGuestRoom) return this.store;
    this.importing ??= importLegacyUserData(this.env.DB, this.store, this.name.slice("user-".length)).finally(() => {
      this.importing = null;
    });
    await this.importing;
    this.imported = true;
    return this.store;
  }

  // ── Data RPCs of services/{chats,projects,settings} (a guest's room: the chat ones) ──────────
  // Null or false: no such record in this room (the service answers 404). A deleted account's
  // room finds nothing and writes nothing: a call that was already on its way changes nothing.

  async listChats(input: ListChatsInput): Promise<ChatListResponse> {
    return this.withData((store) => store.listChats(input), { chats: [], total: 0, totalPages: 1, currentPage: input.page });
  }
  /** A page of the chat's messages (room-store.ts: bounded in bytes); services/chats joins the pages. */
  async chatDetailPage(chatId: string, after: MessageCursor | null): Promise<ChatDetailPage | null> {
    return this.withData((store) => store.chatDetailPage(chatId, after), null);
  }
  async updateChat(chatId: string, changes: ChatChanges): Promise<Chat | null> {
    return this.withData((store) => store.updateChat(chatId, changes), null);
  }
  async deleteChat(chatId: string): Promise<boolean> {
    return this.withData((store) => {
      this.active.stop(chatId);
      return store.deleteChat(chatId);
    }, false);
  }
  async listProjects(): Promise<Project[]> {
    return this.withData((store) => roomProjects.list(store), []);
  }
  async getProject(projectId: string): Promise<Project | null> {
    return this.withData((store) => roomProjects.get(store, projectId), null);
  }
  /** A project's chats (the chat list's shape); null when there is no such project. */
  async listProjectChats(projectId: string, input: ListChatsInput): Promise<ChatListResponse | null> {
    return this.withData((store) => (roomProjects.get(store, projectId) ? store.listChats({ ...input, projectId }) : null), null);
  }
  /** Null: the account was deleted meanwhile. */
  async createProject(input: { name: string; instructions: string }): Promise<Project | null> {
    return this.withData((store) => roomProjects.create(store, input), null);
  }
  async updateProject(projectId: string, changes: ProjectChanges): Promise<Project | null> {
    return this.withData((store) => roomProjects.update(store, projectId, changes), null);
  }
  async deleteProject(projectId: string): Promise<boolean> {
    return this.withData((store) => roomProjects.delete(store, projectId), false);
  }
  async settings(): Promise<UserSettings> {
    return this.withData((store) => store.settings(), { model: null });
  }
  /** The chosen model; the next message reads it from here (no copy to refresh). Null: the account was deleted meanwhile. */
  async saveSettings(settings: UserSettings): Promise<UserSettings | null> {
    return this.withData((store) => store.saveSettings(settings), null);
  }

  // ── The owner's all-assistants budget (budgets/owner-budget.ts; a signed-in user's room only) ──
  // Sentinels, never throws: `{ ok: false }` for a guest room, a deleted account, or a failure.

  /**
   * An assistant's object reports its count of the month (after the message was admitted). The
   * answer says whether the all-assistants budget pauses the owner's assistants this month; when
   * this report paused them, the room tells every one of them (D1 lists them, only then).
   */
  async budgetReport(input: { assistantId: string; month: string; used: number }): Promise<{ ok: true; paused: boolean } | { ok: false }> {
    return this.withBudget("budgetReport", async (budget, userId, now) => {
      const result = budget.report({ ...input, userId, now });
      await this.afterBudgetStep(result.notice);
      // Awaited: the report itself runs in the assistant's alarm, off any visitor's path.
      if (result.pausedNow) await tellOwnerAssistants(this.env, userId, input.month, true);
      return { ok: true as const, paused: result.paused };
    });
  }

  /** The all-assistants budget this month, and each assistant's count as last reported. */
  async ownerBudget(): Promise<{ ok: true; usage: BudgetUsage; perAssistant: Record<string, number> } | { ok: false }> {
    return this.withBudget("ownerBudget", (budget, _userId, now) => ({
      ok: true as const,
      usage: budget.usage(now),
      perAssistant: Object.fromEntries(budget.perAssistant(monthKey(now))),
    }));
  }

  /**
   * PUT /api/budgets: sets (limit null: removes) the all-assistants budget, then tells every
   * assistant of the owner whether it pauses them now (awaited: a raised budget lifts the pause
   * before the owner's request answers).
   */
  async setOwnerBudget(setting: { limit: number | null; action?: OwnerBudgetSetting["action"] | undefined }): Promise<{ ok: true; usage: BudgetUsage; perAssistant: Record<string, number> } | { ok: false }> {
    return this.withBudget("setOwnerBudget", async (budget, userId, now) => {
      const result = budget.set({ setting, userId, now });
      await this.afterBudgetStep(result.notice);
      await tellOwnerAssistants(this.env, userId, monthKey(now), result.paused);
      return { ok: true as const, usage: budget.usage(now), perAssistant: Object.fromEntries(budget.perAssistant(monthKey(now))) };
    });
  }

  private async withBudget<T>(method: string, use: (budget: OwnerBudget, userId: string, now: number) => T | Promise<T>): Promise<T | { ok: false }> {
    try {
      if (this.isGuestRoom || ((await this.revocations.isAccountClosed()) && this.store.state(WORKSPACE_KEPT) === null)) return { ok: false };
      return await use(new OwnerBudget(this.store), this.name.slice("user-".length), Date.now());
    } catch (error) {
      console.error(JSON.stringify({ event: "owner-budget-failed", method, error: String(error) }));
      return { ok: false };
    }
  }

  /** A budget e-mail is waiting: the alarm sends it now, after this answer, and retries what fails. */
  private async afterBudgetStep(notice: boolean) {
    if (notice) await this.alarms.schedule("budget-notices", Date.now());
  }

  /** Sends the waiting budget e-mails; what failed is retried when its backoff ends. */
  private async deliverBudgetNotices() {
    if (this.isGuestRoom) return;
    const next = await deliverBudgetNotices(this.env, this.store);
    if (next !== null) await this.alarms.schedule("budget-notices", next);
  }

  /** A guest's room idle for a day: its chats are erased (a reply still running or a socket open keeps it). */
  private async guestExpired() {
    if (!this.isGuestRoom) return;
    if (this.active.all().length > 0 || [...this.getConnections()].length > 0) {
      await this.keepGuestChatsAlive();
      return;
    }
    await this.ctx.storage.deleteAll();
    this.alarms.forget();
    this.store.forgetSchema();
  }

  /** A data RPC's work on the opened store, or `none` once the account was deleted (or for a guest room never used). */
  private async withData<T>(use: (store: RoomStore) => T, none: T): Promise<T> {
    if (await this.revocations.isAccountClosed()) return none;
    if (this.isGuestRoom) {
      // A guest id that never chatted has nothing to read, and a call must not make it a room.
      if (!this.store.exists()) return none;
      await this.keepGuestChatsAlive(); // a guest's call counts as activity
    }
    return use(await this.openStore());
  }

  /**
   * Account deletion, before the account's D1 rows go: every chat, message, project and setting
   * of the room is erased, replies being written stop, and the legacy move is marked done (the
   * same D1 batch deletes any legacy row it had not moved yet). `keepWorkspace`: the account's own
   * workspace lives on under the owner it was transferred to, and its all-assistants budget (kept
   * in this room, named by the workspace's id) stays and keeps answering (WORKSPACE_KEPT).
   */
  async eraseAccountData(options: { keepWorkspace?: boolean } = {}): Promise<void> {
    for (const reply of this.active.all()) this.active.stop(reply.chatId);
    // The marker in the same transaction: a legacy move still running stops at its next write.
    this.store.transaction(() => {
      this.store.eraseUserData();
      if (options.keepWorkspace) this.store.setState(WORKSPACE_KEPT, "1");
      else new OwnerBudget(this.store).erase();
      this.store.setState(LEGACY_IMPORT_MARKER, "done");
    });
    this.imported = true;
  }

  /** The named alarms that are due. */
  override async onAlarm() {
    // An alarm set by a version before named alarms: the job it was set for.
    if (this.alarms.isEmpty()) await this.alarms.schedule(this.isGuestRoom ? "guest-expiry" : "budget-notices", Date.now());
    await this.alarms.run();
  }

  protected async keepGuestChatsAlive() {
    await this.alarms.schedule("guest-expiry", Date.now() + guestSession.idleTtlMs, "always");
  }
}
