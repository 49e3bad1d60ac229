/**
 * The Knowledge tab of an assistant's page: its sections, top to bottom. Each is one entry of
 * `knowledgeSections`; a new source of knowledge is one more entry there (the websites are one).
 */
import { Fragment, useEffect, useId, useState, type ReactNode } from "react";
import { knowledgeTextUi, publicAssistantUi, type KnowledgeFile, type PublicAssistant } from "../../../../contract";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { PencilIcon } from "../ui/icons";
import { KnowledgeFileTable } from "./knowledge-file-table";
import { KnowledgeTextDialog, type KnowledgeTextTarget } from "./knowledge-text-dialog";
import { KnowledgeSearch } from "./knowledge-search";
import { QaPanel } from "./qa-panel";
import { UploadButton, UploadFields, useKnowledgeUpload } from "./upload-panel";
import { WebSourcesPanel } from "./web-sources-panel";
import { useCan } from "../../stores/workspace";

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
  /** Shown only to roles that manage assistants (agents see the curated answers and the search). */
  manageOnly?: boolean;
  render: (props: KnowledgeSectionProps) => ReactNode;
}

/** A text's row as the table shows it before the assistant is read again: being saved (busy), or as saved. */
type TextRow = { file: KnowledgeFile; busy: boolean };

/** The table's rows with a text's row over its stored one (a new text first). */
function withTextRow(files: readonly KnowledgeFile[], row: TextRow | null): KnowledgeFile[] {
  if (!row) return [...files];
  const { file } = row;
  return files.some((f) => f._id === file._id) ? files.map((f) => (f._id === file._id ? file : f)) : [file, ...files];
}

/**
 * The documents: upload (the Upload Documents flow, in place) or add a text, then the table of
 * files with their size, date, status and passages; a text's row opens it to edit.
 */
function DocumentsSection({ assistant, reload, onRemoveFile }: KnowledgeSectionProps) {
  const headingId = useId();
  const upload = useKnowledgeUpload(assistant, reload);
  const [textTarget, setTextTarget] = useState<KnowledgeTextTarget | null>(null);
  const [textRow, setTextRow] = useState<TextRow | null>(null);
  // The assistant read again carries the saved text: its own row takes over.
  useEffect(() => setTextRow((row) => (row?.busy ? row : null)), [assistant.files]);
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
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button variant="secondary" onClick={() => setTextTarget({ mode: "add" })}>
            <PencilIcon size={16} /> {knowledgeTextUi.add}
          </Button>
          <UploadButton upload={upload} />
        </div>
      </div>
      {/* The full table, across the page's width; the card keeps only an overview line. */}
      <KnowledgeFileTable
        files={withTextRow(assistant.files, textRow)}
        onRemove={onRemoveFile}
        onEdit={(file) => setTextTarget({ mode: "edit", file })}
        busy={(file) => !!textRow?.busy && file._id === textRow.file._id}
      />
      <KnowledgeTextDialog
        assistantId={assistant._id}
        target={textTarget}
        onClose={() => setTextTarget(null)}
        onSaving={(file) => setTextRow(file ? { file, busy: true } : null)}
        onSaved={(text, mode) => {
          setTextRow({ file: text.file, busy: false });
          setTextTarget(null);
          toast({ variant: "success", title: mode === "add" ? knowledgeTextUi.added : knowledgeTextUi.saved });
          reload();
        }}
      />
    </section>
  );
}

export const knowledgeSections: readonly KnowledgeSection[] = [
  { key: "documents", manageOnly: true, render: (props) => <DocumentsSection {...props} /> },
  { key: "websites", manageOnly: true, render: ({ assistant }) => <WebSourcesPanel assistantId={assistant._id} /> },
  { key: "curated-answers", render: ({ assistant, reload }) => <QaPanel assistant={assistant} reload={reload} /> },
  { key: "search", render: ({ assistant }) => <KnowledgeSearch assistant={assistant} /> },
];

export function KnowledgePanel(props: KnowledgeSectionProps) {
  const manage = useCan("assistants.manage");
  return (
    <div className="space-y-8">
      {knowledgeSections.filter((section) => manage || !section.manageOnly).map((section) => (
        <Fragment key={section.key}>{section.render(props)}</Fragment>
      ))}
    </div>
  );
}
