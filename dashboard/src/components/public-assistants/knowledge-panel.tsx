/**
 * The Knowledge tab of an assistant's page: its sections, top to bottom. Each is one entry of
 * `knowledgeSections`; a new source of knowledge is one more entry there (the websites are one).
 */
import { Fragment, useId, type ReactNode } from "react";
import { publicAssistantUi, type KnowledgeFile, type PublicAssistant } from "../../../../contract";
import { KnowledgeFileTable } from "./knowledge-file-table";
import { KnowledgeSearch } from "./knowledge-search";
import { QaPanel } from "./qa-panel";
import { UploadButton, UploadFields, useKnowledgeUpload } from "./upload-panel";
import { WebSourcesPanel } from "./web-sources-panel";

const P = publicAssistantUi.page;

export interface KnowledgeSectionProps {
  assistant: PublicAssistant;
  /** Read the assistant again (its files changed). */
  reload: () => void;
  /** Asks before a file is removed (the spec's 'Delete file?'). */
  onRemoveFile: (file: KnowledgeFile) => void;
}

export interface KnowledgeSection {
  key: string;
  render: (props: KnowledgeSectionProps) => ReactNode;
}

/** The documents: upload (the Upload Documents flow, in place), then the table of files with their size, date, status and passages. */
function DocumentsSection({ assistant, reload, onRemoveFile }: KnowledgeSectionProps) {
  const headingId = useId();
  const upload = useKnowledgeUpload(assistant, reload);
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div>
        <h2 id={headingId} className="text-base font-semibold text-fg">
          {P.documents}
        </h2>
        <p className="mt-0.5 text-sm text-muted">{publicAssistantUi.upload.description}</p>
      </div>
      <div className="space-y-3">
        <UploadFields upload={upload} />
        <div className="flex justify-end">
          <UploadButton upload={upload} />
        </div>
      </div>
      {/* The full table, across the page's width; the card keeps only an overview line. */}
      <KnowledgeFileTable files={assistant.files} onRemove={onRemoveFile} />
    </section>
  );
}

export const knowledgeSections: readonly KnowledgeSection[] = [
  { key: "documents", render: (props) => <DocumentsSection {...props} /> },
  { key: "websites", render: ({ assistant }) => <WebSourcesPanel assistantId={assistant._id} /> },
  { key: "curated-answers", render: ({ assistant, reload }) => <QaPanel assistant={assistant} reload={reload} /> },
  { key: "search", render: ({ assistant }) => <KnowledgeSearch assistant={assistant} /> },
];

export function KnowledgePanel(props: KnowledgeSectionProps) {
  return (
    <div className="space-y-8">
      {knowledgeSections.map((section) => (
        <Fragment key={section.key}>{section.render(props)}</Fragment>
      ))}
    </div>
  );
}
