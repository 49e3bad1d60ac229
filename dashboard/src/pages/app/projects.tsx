/**
 * /app/projects: the user's projects (GET /api/projects). Create one with a name and instructions,
 * rename it, delete it (with confirmation; its chats are kept, outside any project).
 */
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { appMessages, appRoutes, projectUi, type Project } from "../../../../contract";
import { CreateProjectDialog, DeleteProjectDialog, RenameProjectDialog } from "../../components/projects/project-dialogs";
import { Button } from "../../components/ui/button";
import { AlertIcon, FolderIcon, PencilIcon, PlusIcon, TrashIcon } from "../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../components/ui/page";
import { Spinner } from "../../components/ui/spinner";
import { chatApi } from "../../lib/chat-api";
import { formatTime } from "../../lib/format";
import { invalidateProjects } from "../../stores/chat";

type Dialog = { kind: "create" } | { kind: "rename" | "delete"; project: Project } | null;

const iconButton =
  "inline-flex size-8 items-center justify-center rounded-lg text-muted hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent";

function ProjectCard({ project, onRename, onDelete }: { project: Project; onRename: () => void; onDelete: () => void }) {
  return (
    <article aria-label={project.name} className="relative flex min-w-0 flex-1 flex-col rounded-xl border border-line bg-surface p-5 transition-colors hover:border-line-strong">
      <div className="flex items-start gap-3">
        <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
          <FolderIcon size={18} />
        </div>
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-base font-semibold text-fg">
            <Link href={appRoutes.project(project.id)} className="after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none">
              {project.name}
            </Link>
          </h2>
          <p className="mt-0.5 text-xs text-faint">
            {projectUi.chatCount(project.chatCount)} · {projectUi.updated(formatTime(project.updatedAt))}
          </p>
        </div>
        <div className="relative z-10 -mr-2 -mt-1 flex shrink-0 gap-0.5">
          <button type="button" className={iconButton} onClick={onRename} aria-label={`${projectUi.rename} ${project.name}`} title={projectUi.rename}>
            <PencilIcon size={15} />
          </button>
          <button type="button" className={`${iconButton} hover:bg-danger-soft hover:text-danger`} onClick={onDelete} aria-label={`${projectUi.delete} ${project.name}`} title={projectUi.delete}>
            <TrashIcon size={15} />
          </button>
        </div>
      </div>
      <p className={`mt-3 line-clamp-3 text-sm break-words whitespace-pre-line ${project.instructions ? "text-muted" : "text-faint italic"}`}>
        {project.instructions || projectUi.noInstructions}
      </p>
    </article>
  );
}

export default function ProjectsPage() {
  const [, navigate] = useLocation();
  const [status, setStatus] = useState<"loading" | "ready" | "error">("loading");
  const [projects, setProjects] = useState<Project[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);

  const load = useCallback(async (quiet = false) => {
    if (!quiet) setStatus("loading");
    try {
      const list = await chatApi.listProjects();
      setProjects([...list].sort((a, b) => b.updatedAt - a.updatedAt));
      setStatus("ready");
    } catch {
      if (!quiet) setStatus("error");
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const changed = () => {
    invalidateProjects();
    setDialog(null);
    void load(true);
  };

  return (
    <PageContainer>
      <PageHeader title={projectUi.title} description={projectUi.description}>
        <Button onClick={() => setDialog({ kind: "create" })}>
          <PlusIcon size={16} /> {projectUi.newProject}
        </Button>
      </PageHeader>

      {status === "loading" && (
        <div className="flex min-h-60 items-center justify-center" role="status">
          <Spinner size={24} className="text-accent" />
          <span className="sr-only">{appMessages.loading}</span>
        </div>
      )}
      {status === "error" && (
        <EmptyState icon={<AlertIcon size={20} />} title={projectUi.loadFailed}>
          <Button variant="secondary" className="mt-2" onClick={() => void load()}>
            {projectUi.retry}
          </Button>
        </EmptyState>
      )}
      {status === "ready" && projects.length === 0 && (
        <EmptyState icon={<FolderIcon size={20} />} title={projectUi.emptyTitle}>
          <p>{projectUi.emptyText}</p>
          <Button className="mt-3" onClick={() => setDialog({ kind: "create" })}>
            <PlusIcon size={16} /> {projectUi.newProject}
          </Button>
        </EmptyState>
      )}
      {status === "ready" && projects.length > 0 && (
        <ul aria-label={projectUi.listLabel} className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-2">
          {projects.map((p) => (
            <li key={p.id} className="flex min-w-0">
              <ProjectCard project={p} onRename={() => setDialog({ kind: "rename", project: p })} onDelete={() => setDialog({ kind: "delete", project: p })} />
            </li>
          ))}
        </ul>
      )}

      {dialog?.kind === "create" && (
        <CreateProjectDialog
          onClose={() => setDialog(null)}
          onCreated={(project) => {
            invalidateProjects();
            navigate(appRoutes.project(project.id));
          }}
        />
      )}
      {dialog?.kind === "rename" && <RenameProjectDialog project={dialog.project} onClose={() => setDialog(null)} onRenamed={changed} />}
      {dialog?.kind === "delete" && <DeleteProjectDialog project={dialog.project} onClose={() => setDialog(null)} onDeleted={changed} />}
    </PageContainer>
  );
}
