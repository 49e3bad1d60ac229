/**
 * The chat screen: /app/new-chat and /app/history are the same screen (spec section 2), so moving
 * from one to the other keeps it mounted. A chat is selected with `?chat=<id>` (a new chat moves
 * there as soon as the server names it, so a reload keeps it); `/app/new-chat?project=<id>` starts
 * a chat in a project. Signed-in users and guests get the chats sidebar: a column on wide screens,
 * a drawer of its own on tablets, and on phones a section of the menu drawer (one drawer: the
 * layout's menu-slot.ts), and the whole screen at /app/history without a chat; a guest's says how
 * long their chats are kept, and guests see their messages left.
 */
import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { Link, useLocation, useSearch } from "wouter";
import { appRoutes, chatUi } from "../../../../contract";
import { pendingKey } from "../../components/chat/chat-reducer";
import { ChatSidebar, chatHref, chatTitle } from "../../components/chat/chat-sidebar";
import { ChatsDrawer } from "../../components/chat/chats-drawer";
import { Conversation } from "../../components/chat/conversation";
import { sidePanelQuery, useMediaQuery, wideLayoutQuery } from "../../components/chat/use-media-query";
import { useMenuSlot } from "../../components/layout/menu-slot";
import { Button } from "../../components/ui/button";
import { ChatPlusIcon, FolderIcon, PanelLeftIcon } from "../../components/ui/icons";
import { useAuth } from "../../stores/auth";
import { loadProjects, newLocalId, useChatStore } from "../../stores/chat";
import { chooseProject, leaveChat, openChat, startChatRealtime } from "../../stores/chat-realtime";

const newDraftKey = () => pendingKey(newLocalId());

/** The selected chat and the new-chat draft, from the address. */
function useChatRoute() {
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  return {
    location,
    navigate,
    isHistory: location === appRoutes.history,
    chatParam: params.get("chat") || null,
    projectParam: params.get("project") || null,
  };
}

/** A new chat's draft: a pending key that becomes the chat's id once the server names it. */
function useDraft(chatParam: string | null, projectParam: string | null, location: string, navigate: (to: string, opts?: { replace?: boolean }) => void) {
  const [draftKey, setDraftKey] = useState(newDraftKey);
  const resolved = useChatStore((s) => s.chat.resolved[draftKey]);

  // Coming back to /app/new-chat after the draft was used starts a fresh one.
  useEffect(() => {
    if (chatParam) return;
    const state = useChatStore.getState().chat;
    const used = state.resolved[draftKey] || (state.conversations[draftKey]?.messages.length ?? 0) > 0;
    if (used) setDraftKey(newDraftKey());
    // Only a change of address decides this, not the draft's own progress.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location, chatParam]);

  // A project preselected by /app/new-chat?project=<id> (New chat in this project).
  useEffect(() => {
    if (!chatParam && !resolved) chooseProject(draftKey, projectParam);
  }, [draftKey, projectParam, chatParam, resolved]);

  // The server named the new chat: select it in the address (reloads and other entry points keep it).
  useEffect(() => {
    if (!chatParam && resolved) navigate(chatHref(resolved), { replace: true });
  }, [resolved, chatParam, navigate]);

  return { draftKey, resolved, restart: () => setDraftKey(newDraftKey()) };
}

export default function ChatPage() {
  // Before any effect of this screen or its children: whose chats these are must be known first.
  useState(startChatRealtime);
  const { location, navigate, isHistory, chatParam, projectParam } = useChatRoute();
  const status = useAuth((s) => s.status);
  const isUser = status === "authenticated";
  const isGuest = status === "guest";
  const unverified = useAuth((s) => s.status === "authenticated" && s.user?.isEmailVerified === false);
  const hasChats = isUser || isGuest;
  const wide = useMediaQuery(wideLayoutQuery);
  // Phones: the chats live in the menu drawer (one drawer); tablets keep a chats drawer of their own.
  const sidePanel = useMediaQuery(sidePanelQuery);
  const phone = hasChats && !sidePanel;
  const ownDrawer = hasChats && !wide && !phone;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuSlot = useMenuSlot((s) => s.node);
  const closeMenu = useMenuSlot((s) => s.close);
  const setMenuFilled = useMenuSlot((s) => s.setFilled);
  useEffect(() => {
    if (!phone) return;
    setMenuFilled(true);
    return () => setMenuFilled(false);
  }, [phone, setMenuFilled]);
  const { draftKey, resolved, restart } = useDraft(chatParam, projectParam, location, navigate);
  const projects = useChatStore((s) => s.projects);

  useEffect(() => {
    if (isUser) void loadProjects();
  }, [isUser]);

  // Open the selected chat (saved messages, then join-{chatId}); leave it when another is shown.
  useEffect(() => {
    if (!chatParam) return;
    void openChat(chatParam);
    return () => leaveChat(chatParam);
  }, [chatParam, status]);

  const convKey = chatParam ?? resolved ?? draftKey;
  const conversation = useChatStore((s) => s.chat.conversations[convKey]);
  const projectId = conversation?.chat?.projectId ?? conversation?.projectId ?? null;
  const project = projectId ? projects?.find((p) => p.id === projectId) : undefined;
  const title = conversation?.chat ? chatTitle(conversation.chat) : chatUi.newChat;

  const newChat = () => {
    setDrawerOpen(false);
    restart();
    navigate(appRoutes.newChat);
  };
  const removeDraftProject = () => {
    chooseProject(draftKey, null);
    if (projectParam) navigate(appRoutes.newChat, { replace: true });
  };

  const sidebar = (
    <ChatSidebar activeChatId={chatParam} onNewChat={newChat} onNavigate={() => setDrawerOpen(false)} onActiveDeleted={newChat} />
  );
  const listOnly = hasChats && !wide && isHistory && !chatParam;

  return (
    <div className="flex min-h-0 flex-1">
      {hasChats && wide && (
        <aside aria-label={chatUi.chats} className="flex w-72 shrink-0 flex-col border-r border-line bg-canvas">
          {sidebar}
        </aside>
      )}
      {listOnly ? (
        <section aria-labelledby="chats-heading" className="flex min-w-0 flex-1 flex-col">
          <div className="flex h-12 shrink-0 items-center border-b border-line px-4">
            <h1 id="chats-heading" className="text-sm font-semibold text-fg">
              {chatUi.chats}
            </h1>
          </div>
          <div className="min-h-0 flex-1">{sidebar}</div>
        </section>
      ) : (
        <section className="flex min-w-0 flex-1 flex-col" aria-label={title}>
          <div className="flex h-12 shrink-0 items-center gap-2 border-b border-line px-3 sm:px-4">
            {ownDrawer && (
              <button
                type="button"
                onClick={() => setDrawerOpen(true)}
                aria-label={chatUi.openChats}
                title={chatUi.openChats}
                className="-ml-1 inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
              >
                <PanelLeftIcon size={18} />
              </button>
            )}
            <h1 className="min-w-0 truncate text-sm font-semibold text-fg">{title}</h1>
            {project && conversation?.chat && (
              <Link
                href={appRoutes.project(project.id)}
                className="inline-flex min-w-0 shrink items-center gap-1 rounded-full border border-line px-2 py-0.5 text-xs text-muted hover:bg-subtle hover:text-fg"
              >
                <FolderIcon size={12} className="shrink-0" />
                <span className="truncate">{project.name}</span>
              </Link>
            )}
            {!(hasChats && wide) && (
              <Button variant="ghost" size="sm" className="ml-auto shrink-0" onClick={newChat} aria-label={chatUi.newChat}>
                <ChatPlusIcon size={16} />
                <span className="max-sm:hidden">{chatUi.newChat}</span>
              </Button>
            )}
          </div>
          <Conversation
            convKey={convKey}
            composerKey={resolved && convKey === resolved ? draftKey : convKey}
            conversation={conversation}
            isGuest={isGuest}
            unverified={unverified}
            draftProject={!conversation?.chat ? project : undefined}
            onRemoveProject={removeDraftProject}
            onNewChat={newChat}
          />
        </section>
      )}
      {ownDrawer && (
        <ChatsDrawer open={drawerOpen} onOpenChange={setDrawerOpen}>
          {sidebar}
        </ChatsDrawer>
      )}
      {phone &&
        menuSlot &&
        createPortal(
          <section aria-label={chatUi.chats} className="flex min-h-0 flex-1 flex-col">
            <h2 className="px-4 pt-3 text-xs font-semibold tracking-wide text-muted uppercase">{chatUi.chats}</h2>
            <ChatSidebar
              activeChatId={chatParam}
              onNewChat={() => {
                closeMenu();
                newChat();
              }}
              onNavigate={closeMenu}
              onActiveDeleted={newChat}
            />
          </section>,
          menuSlot,
        )}
    </div>
  );
}
