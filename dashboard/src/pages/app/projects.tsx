/** /app/projects: the projects list (its own issue builds it). Until then: what the page is for. */
import { FolderIcon } from "../../components/ui/icons";
import { EmptyState, PageContainer, PageHeader } from "../../components/ui/page";

export default function ProjectsPage() {
  return (
    <PageContainer>
      <PageHeader title="Projects" description="Group related chats and files in a project so Tala keeps their context together." />
      <EmptyState icon={<FolderIcon size={20} />} title="No projects yet">
        <p>Your projects will be listed here. Creating projects is not part of this version of Tala yet.</p>
      </EmptyState>
    </PageContainer>
  );
}
