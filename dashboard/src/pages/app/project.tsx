/** /app/projects/{id}: one project (its own issue builds it). Until then: what the page is for. */
import { Link, useParams } from "wouter";
import { appRoutes } from "../../../../contract";
import { FolderIcon } from "../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../components/ui/page";

export default function ProjectPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <PageContainer>
      <nav aria-label="Breadcrumb" className="mb-4 text-sm">
        <Link href={appRoutes.projects} className="text-muted hover:text-fg hover:underline">
          Projects
        </Link>
      </nav>
      <PageHeader title="Project" description="A project's chats, files and instructions, in one place." />
      <EmptyState icon={<FolderIcon size={20} />} title="This project cannot be shown yet">
        <p>
          Project pages are not part of this version of Tala yet, so project <span className="font-mono text-fg">{id}</span> cannot
          be opened.
        </p>
      </EmptyState>
    </PageContainer>
  );
}
