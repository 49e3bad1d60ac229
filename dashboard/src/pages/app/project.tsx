/**
 * /app/projects/{id}: one project. Its instructions (editable: the system prompt of its chats), its
 * chats newest first, 'New chat in this project' (the chat screen with the project preselected, so
 * the first message carries projectId), rename and delete.
 */
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { appMessages, appRoutes, chatMessages, projectUi, updateProjectBody, type Chat, type Project } from "../../../../contract";
import { chatHref, chatTitle } from "../../components/chat/chat-sidebar";
import { DeleteProjectDialog, InstructionsField, RenameProjectDialog } from "../../components/projects/project-dialogs";
import { SettingsSection } from "../../components/settings/section";
import { Button, buttonClasses } from "../../components/ui/button";
import { AlertIcon, ChatPlusIcon, ChevronLeftIcon, FileIcon, MessageIcon, PencilIcon, TrashIcon } from "../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../components/ui/page";
import { Spinner } from "../../components/ui/spinner";
import { ApiError, errorMessage } from "../../lib/api";
import { chatApi } from "../../lib/chat-api";
import { formatTime } from "../../lib/format";
import { invalidateProjects } from "../../stores/chat";
import { toast } from "../../stores/toast";

const CHATS_PAGE_SIZE = 20;

function InstructionsEditor({ project, onSaved }: { project: Project; onSaved: (project: Project) => void }) {
  const [value, setValue] = useState(project.instructions);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const dirty = value.trim() !== project.instructions.trim();

  const save = async () => {
    const parsed = updateProjectBody.safeParse({ instructions: value });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    setBusy(true);
    try {
      const updated = await chatApi.updateProject(project.id, parsed.data);
      setValue(updated.instructions);
      toast({ description: projectUi.instructionsSaved, variant: "success" });
      onSaved(updated);
    } catch (err) {
      setError(errorMessage(err, projectUi.saveFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      noValidate
    >
      <InstructionsField value={value} onChange={setValue} error={error} rows={7} />
      <div className="mt-4 flex justify-end gap-2">
        {dirty && (
          <Button variant="ghost" onClick={() => setValue(project.instructions)} disabled={busy}>
            {projectUi.cancel}
          </Button>
        )}
        <Button type="submit" busy={busy} disabled={!dirty}>
          {projectUi.saveInstructions}
        </Button>
      </div>
    </form>
  );
}

function ProjectChats({ projectId }: { projectId: string }) {
  const [state, setState] = useState<{ status: "loading" | "ready" | "error"; chats: Chat[]; page: number; totalPages: number }>({
    status: "loading",
    chats: [],
    page: 0,
    totalPages: 0,
  });
  const [more, setMore] = useState(false);

  const load = useCallback(
    async (page: number) => {
      try {
        const res = await chatApi.listProjectChats(projectId, { page, limit: CHATS_PAGE_SIZE });
        setState((s) => ({
          status: "ready",
          chats: page === 1 ? res.chats : [...s.chats, ...res.chats.filter((c) => !s.chats.some((x) => x.id === c.id))],
          page: res.currentPage,
          totalPages: res.totalPages,
        }));
      } catch (err) {
        if (page === 1) setState((s) => ({ ...s, status: "error" }));
        else toast({ variant: "destructive", description: errorMessage(err, projectUi.projectLoadFailed) });
      }
    },
    [projectId],
  );

  useEffect(() => {
    void load(1);
  }, [load]);

  if (state.status === "loading") {
    return (
      <div className="flex justify-center py-8 text-faint" role="status">
        <Spinner size={20} />
        <span className="sr-only">{appMessages.loading}</span>
      </div>
    );
  }
  if (state.status === "error") {
    return (
      <div className="py-4 text-sm text-muted">
        <p>{projectUi.projectLoadFailed}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void load(1)}>
          {projectUi.retry}
        </Button>
      </div>
    );
  }
  if (state.chats.length === 0) return <p className="text-sm text-muted">{projectUi.noChats}</p>;
  return (
    <>
      <ul aria-label={projectUi.chatsLabel} className="-mx-2 divide-y divide-line">
        {state.chats.map((chat) => (
          <li key={chat.id}>
            <Link href={chatHref(chat.id)} className="flex items-center gap-3 rounded-lg px-2 py-2.5 hover:bg-subtle">
              <MessageIcon size={16} className="shrink-0 text-faint" />
              <span className="min-w-0 flex-1 truncate text-sm text-fg">{chatTitle(chat)}</span>
              <span className="shrink-0 text-xs text-faint">{formatTime(chat.updatedAt)}</span>
            </Link>
          </li>
        ))}
      </ul>
      {state.page < state.totalPages && (
        <Button
          variant="ghost"
          size="sm"
          className="mt-2 w-full text-muted"
          busy={more}
          onClick={() => {
            setMore(true);
            void load(state.page + 1).finally(() => setMore(false));
          }}
        >
          {projectUi.loadMore}
        </Button>
      )}
    </>
  );
}

export default function ProjectPage() {
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const [status, setStatus] = useState<"loading" | "ready" | "error" | "missing">("loading");
  const [project, setProject] = useState<Project | null>(null);
  const [dialog, setDialog] = useState<"rename" | "delete" | null>(null);

  const load = useCallback(async () => {
    setStatus("loading");
    try {
      setProject(await chatApi.getProject(id));
      setStatus("ready");
    } catch (err) {
      setStatus(err instanceof ApiError && err.status === 404 ? "missing" : "error");
    }
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  const updated = (next: Project) => {
    setProject(next);
    invalidateProjects();
  };

  return (
    <PageContainer>
      <nav aria-label="Breadcrumb" className="mb-4 text-sm">
        <Link href={appRoutes.projects} className={buttonClasses("ghost", "sm", "-ml-3 text-muted hover:text-fg")}>
          <ChevronLeftIcon size={16} /> {projectUi.breadcrumb}
        </Link>
      </nav>
      {status === "loading" && (
        <div className="flex min-h-60 items-center justify-center" role="status">
          <Spinner size={24} className="text-accent" />
          <span className="sr-only">{appMessages.loading}</span>
        </div>
      )}
      {(status === "missing" || status === "error") && (
        <EmptyState icon={<AlertIcon size={20} />} title={status === "missing" ? chatMessages.projectNotFound : projectUi.projectLoadFailed}>
          {status === "error" && (
            <Button variant="secondary" className="mt-2" onClick={() => void load()}>
              {projectUi.retry}
            </Button>
          )}
        </EmptyState>
      )}
      {status === "ready" && project && (
        <>
          <PageHeader title={project.name} description={projectUi.chatCount(project.chatCount)}>
            <Button variant="secondary" size="md" onClick={() => setDialog("rename")} aria-label={`${projectUi.rename} ${project.name}`}>
              <PencilIcon size={15} /> <span className="max-sm:sr-only">{projectUi.rename}</span>
            </Button>
            <Button variant="danger" size="md" onClick={() => setDialog("delete")} aria-label={`${projectUi.delete} ${project.name}`}>
              <TrashIcon size={15} /> <span className="max-sm:sr-only">{projectUi.delete}</span>
            </Button>
            <Link href={`${appRoutes.newChat}?project=${encodeURIComponent(project.id)}`} className={buttonClasses("primary", "md")}>
              <ChatPlusIcon size={16} /> {projectUi.newChatInProject}
            </Link>
          </PageHeader>
          <div className="divide-y divide-line">
            <SettingsSection title={projectUi.instructions} icon={<FileIcon size={18} />}>
              <InstructionsEditor key={project.id} project={project} onSaved={updated} />
            </SettingsSection>
            <SettingsSection title={projectUi.chatsTitle} icon={<MessageIcon size={18} />}>
              <ProjectChats projectId={project.id} />
            </SettingsSection>
          </div>
          {dialog === "rename" && (
            <RenameProjectDialog
              project={project}
              onClose={() => setDialog(null)}
              onRenamed={(next) => {
                updated(next);
                setDialog(null);
              }}
            />
          )}
          {dialog === "delete" && (
            <DeleteProjectDialog
              project={project}
              onClose={() => setDialog(null)}
              onDeleted={() => {
                invalidateProjects();
                navigate(appRoutes.projects);
              }}
            />
          )}
        </>
      )}
    </PageContainer>
  );
}
