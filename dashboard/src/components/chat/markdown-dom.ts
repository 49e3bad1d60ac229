/**
 * The sanitising half of a reply's rendering (browser only: DOMPurify needs a DOM). Everything a
 * model wrote passes renderMarkdown (strict renderer), then DOMPurify here, before it reaches the
 * page: scripts, event-handler attributes, javascript: and data: URLs, forms and styles are gone.
 * Links open in a new tab without access to this one.
 */
import DOMPurify from "dompurify";
import { renderMarkdown } from "./markdown";

let purifier: ReturnType<typeof DOMPurify> | null = null;

function getPurifier() {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow");
    }
  });
  purifier = instance;
  return instance;
}

/** Sanitised HTML, safe to put into the page. */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "textarea", "select", "img", "video", "audio", "iframe", "object", "embed", "svg", "math"],
    FORBID_ATTR: ["style"],
    ALLOW_DATA_ATTR: false,
    ADD_ATTR: ["data-copy-code", "target"],
  });
}

/** A model's markdown as sanitised HTML. */
export function markdownToSafeHtml(text: string): string {
  return sanitizeHtml(renderMarkdown(text));
}
