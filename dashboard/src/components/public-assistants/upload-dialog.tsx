/**
 * Upload Documents (spec sections 4 and 5): the upload of upload-panel.tsx in a dialog, locked while
 * files are on their way; once they all landed it closes (the page reloads the list).
 */
import { publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { UploadButton, UploadFields, useKnowledgeUpload } from "./upload-panel";

const L = publicAssistantUi.upload;

export function UploadDialog({
  open,
  assistant,
  onOpenChange,
  onUploaded,
}: {
  open: boolean;
  assistant: PublicAssistant;
  onOpenChange: (open: boolean) => void;
  /** Files landed (also after a later batch failed): the page reloads the list. `done` closes the dialog. */
  onUploaded: (done: boolean) => void;
}) {
  const upload = useKnowledgeUpload(assistant, onUploaded);
  const footer = (
    <>
      <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={upload.busy}>
        {publicAssistantUi.form.cancel}
      </Button>
      <UploadButton upload={upload} />
    </>
  );
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={L.title} description={L.description} footer={footer} locked={upload.busy}>
      <UploadFields upload={upload} />
    </Modal>
  );
}
