/**
 * A reply's markdown on screen: rendered by the strict renderer, sanitised by DOMPurify, then put
 * into the page (nothing else a model wrote reaches the DOM). Code blocks carry a Copy button,
 * handled here by event delegation ('Content copied to clipboard').
 */
import { memo, useMemo, type MouseEvent } from "react";
import { publicAssistantMessages, successMessages } from "../../../../contract";
import { copyText } from "../../lib/clipboard";
import { toast } from "../../stores/toast";
import { markdownToSafeHtml } from "./markdown-dom";

async function copyCodeBlock(button: HTMLElement) {
  const code = button.closest(".code-block")?.querySelector("pre code")?.textContent ?? "";
  try {
    await copyText(code);
    toast({ description: successMessages.contentCopied, variant: "success" });
  } catch {
    toast({ description: publicAssistantMessages.copyFailed, variant: "destructive" });
  }
}

export const MarkdownView = memo(function MarkdownView({ text, className = "" }: { text: string; className?: string }) {
  const html = useMemo(() => markdownToSafeHtml(text), [text]);
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const button = (e.target as HTMLElement).closest<HTMLElement>("[data-copy-code]");
    if (button && e.currentTarget.contains(button)) void copyCodeBlock(button);
  };
  // The only HTML a model reaches the page with: sanitised by markdownToSafeHtml (strict renderer + DOMPurify).
  return <div className={`markdown ${className}`} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
