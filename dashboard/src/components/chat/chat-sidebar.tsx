/**
 * The chats sidebar (signed-in users): 'New chat', a search box, the history newest first (a chat's
 * project shown under its title), rename and delete (with confirmation) on each chat, 'Load more'.
 * A column on wide screens, the content of a drawer on phones.
 */
import { useEffect, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { appRoutes, chatMessages, chatUi, publicRoutes, type Chat, type Project } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { formatTime } from "../../lib/format";
import { deleteChat, loadList, loadMoreChats, renameChat, useChatStore } from "../../stores/chat";
import { leaveChat } from "../../stores/chat-realtime";
import { Button } from "../ui/button";
import { ConfirmDialog, Modal } from "../ui/dialog";
import { TextField } from "../ui/field";
import { FolderIcon, PencilIcon, PlusIcon, SearchIcon, TrashIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { toast } from "../../stores/toast";
import { Tooltip } from "../ui/tooltip";

const SEARCH_DEBOUNCE_MS = 250;

export const chatTitle = (chat: Pick<Chat, "title"> | null | undefined) => chat?.title?.trim() || chatMessages.untitledChat;

export const chatHref = (chatId: string) => `${appRoutes.history}?chat=${encodeURIComponent(chatId)}`;

function RenameDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const [title, setTitle] = useState(chatTitle(chat));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return setError(chatUi.titleRequired);
    setBusy(true);
    try {
      await renameChat(chat.id, title.trim());
      onClose();
    } catch (err) {
      setError(errorMessage(err, chatUi.renameFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={chatUi.renameTitle}
      size="sm"
      locked={busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {chatUi.cancel}
          </Button>
          <Button type="submit" form="rename-chat" busy={busy}>
            {chatUi.save}
          </Button>
        </>
      }
    >
      <form id="rename-chat" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={chatUi.titleLabel} name="title" value={title} onChange={(e) => setTitle(e.target.value)} error={error} autoFocus maxLength={200} />
      </form>
    </Modal>
  );
}

function ChatRow({
  chat,
  active,
  project,
  onNavigate,
  onRename,
  onDelete,
}: {
  chat: Chat;
  active: boolean;
  project: Project | undefined;
  onNavigate?: () => void;
  onRename: () => void;
  onDelete: () => void;
}) {
  const title = chatTitle(chat);
  return (
    <li className={`group relative rounded-lg ${active ? "bg-accent-soft" : "hover:bg-subtle"}`}>
      <Link
        href={chatHref(chat.id)}
        onClick={onNavigate}
        aria-current={active ? "page" : undefined}
        className="block rounded-lg py-2 pr-16 pl-3 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
      >
        <span className={`block truncate text-sm ${active ? "font-medium text-accent-text" : "text-fg"}`}>{title}</span>
        <span className="mt-0.5 flex min-w-0 items-center gap-1.5 text-xs text-faint">
          {project && (
            <span className="inline-flex min-w-0 items-center gap-1 truncate" title={project.name}>
              <FolderIcon size={12} className="shrink-0" />
              <span className="truncate">{project.name}</span>
              <span aria-hidden="true">·</span>
            </span>
          )}
          <span className="shrink-0">{formatTime(chat.updatedAt)}</span>
        </span>
      </Link>
      <div className="absolute top-1/2 right-1.5 flex -translate-y-1/2 items-center gap-0.5 transition-opacity [@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-focus-within:opacity-100 [@media(hover:hover)]:group-hover:opacity-100">
        <Tooltip label={chatUi.rename}>
          <button
            type="button"
            onClick={onRename}
            aria-label={`${chatUi.rename} ${title}`}
            className="inline-flex size-7 items-center justify-center rounded-md text-muted hover:bg-line hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
          >
            <PencilIcon size={14} />
          </button>
        </Tooltip>
        <Tooltip label={chatUi.delete}>
          <button
            type="button"
            onClick={onDelete}
            aria-label={`${chatUi.delete} ${title}`}
            className="inline-flex size-7 items-center justify-center rounded-md text-muted hover:bg-danger-soft hover:text-danger focus-visible:outline-2 focus-visible:outline-accent"
          >
            <TrashIcon size={14} />
          </button>
        </Tooltip>
      </div>
    </li>
  );
}

export interface ChatSidebarProps {
  activeChatId: string | null;
  onNewChat: () => void;
  /** A chat was chosen (the drawer closes). */
  onNavigate?: () => void;
  /** The open chat was deleted. */
  onActiveDeleted: () => void;
}

export function ChatSidebar({ activeChatId, onNewChat, onNavigate, onActiveDeleted }: ChatSidebarProps) {
  const list = useChatStore((s) => s.list);
  const projects = useChatStore((s) => s.projects);
  const [search, setSearch] = useState(list.search);
  const [renaming, setRenaming] = useState<Chat | null>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  const identity = useChatStore((s) => s.identity);
  const isGuest = identity?.startsWith("guest:") ?? false;
  const listStatus = list.status;
  useEffect(() => {
    const current = useChatStore.getState().list;
    if (!identity || (search === current.search && current.status !== "idle")) return;
    const id = setTimeout(() => void loadList({ search }), search ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(id);
  }, [search, identity, listStatus]);

  const projectOf = (chat: Chat) => (chat.projectId ? projects?.find((p) => p.id === chat.projectId) : undefined);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteChat(deleting.id);
      leaveChat(deleting.id);
      if (deleting.id === activeChatId) onActiveDeleted();
      setDeleting(null);
    } catch (err) {
      toast({ variant: "destructive", title: chatUi.deleteFailed, description: errorMessage(err, chatUi.deleteFailed) });
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex flex-col gap-3 p-3">
        <Button variant="secondary" className="w-full justify-start" onClick={onNewChat}>
          <PlusIcon size={16} /> {chatUi.newChat}
        </Button>
        <div className="relative">
          <SearchIcon size={15} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-faint" />
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            aria-label={chatUi.searchChats}
            placeholder={chatUi.searchChats}
            maxLength={200}
            className="block h-9 w-full rounded-lg border border-line-strong bg-surface pr-3 pl-9 text-sm text-fg placeholder:text-faint focus:border-accent focus:ring-3 focus:ring-accent/20 focus:outline-none"
          />
        </div>
      </div>
      <nav aria-label={chatUi.chats} className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {list.status === "loading" && (
          <div className="flex justify-center py-8 text-faint" role="status">
            <Spinner size={18} />
          </div>
        )}
        {list.status === "error" && (
          <div className="px-2 py-6 text-center text-sm text-muted">
            <p>{chatUi.listLoadFailed}</p>
            <Button variant="secondary" size="sm" className="mt-3" onClick={() => void loadList()}>
              {chatUi.retry}
            </Button>
          </div>
        )}
        {list.status === "ready" && list.chats.length === 0 && (
          <div className="px-3 py-6 text-center text-sm text-muted">
            {list.search ? (
              <p>{chatUi.noSearchResults}</p>
            ) : (
              <>
                <p className="font-medium text-fg">{chatUi.noChatsTitle}</p>
                <p className="mt-1">{chatUi.noChatsText}</p>
              </>
            )}
          </div>
        )}
        {list.status === "ready" && list.chats.length > 0 && (
          <>
            <ul className="flex flex-col gap-0.5">
              {list.chats.map((chat) => (
                <ChatRow
                  key={chat.id}
                  chat={chat}
                  active={chat.id === activeChatId}
                  project={projectOf(chat)}
                  onNavigate={onNavigate}
                  onRename={() => setRenaming(chat)}
                  onDelete={() => setDeleting(chat)}
                />
              ))}
            </ul>
            {list.page < list.totalPages && (
              <Button variant="ghost" size="sm" className="mt-2 w-full text-muted" busy={list.loadingMore} onClick={() => void loadMoreChats()}>
                {chatUi.loadMore}
              </Button>
            )}
          </>
        )}
      </nav>
      {isGuest && (
        <p className="border-t border-line px-4 py-3 text-xs text-muted">
          {chatUi.guestHistoryNote}{" "}
          <Link href={publicRoutes.register} className="font-medium text-accent-text underline underline-offset-2 hover:no-underline">
            {chatUi.guestHistoryCta}
          </Link>
        </p>
      )}
      {renaming && <RenameDialog chat={renaming} onClose={() => setRenaming(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={chatUi.deleteConfirm.title}
        description={chatUi.deleteConfirm.description}
        confirmLabel={chatUi.delete}
        cancelLabel={chatUi.cancel}
        onConfirm={confirmDelete}
        busy={deleteBusy}
      />
    </div>
  );
}
