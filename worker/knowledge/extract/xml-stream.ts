import { knowledgeLimits } from "../../../contract";
import { decodeEntities } from "./collector";

/** Receives the markup of a streamed XML document; names keep their prefix (`w:p`). */
export interface XmlHandler {
  open(name: string, attributes: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Raw character data between tags (entities still encoded, possibly cut mid-entity). */
  text(raw: string): void;
}

/**
 * An incremental XML tag scanner for large Office parts: text is pushed in pieces as it is
 * inflated, and only an incomplete tag at the end of a piece is carried over. No DTD, no entity
 * expansion; comments, processing instructions and CDATA are skipped (Office parts have none
 * where text matters).
 */
export class XmlStream {
  private buffer = "";

  /**
   * `tooLong` is thrown when an unfinished tag, comment or CDATA section outgrows `maxPending`
   * characters: the carried-over text is the only thing this scanner buffers.
   */
  constructor(
    private readonly handler: XmlHandler,
    private readonly tooLong: () => Error = () => new Error("unfinished XML markup past the line limit"),
    private readonly maxPending: number = knowledgeLimits.maxLineChars,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    const b = this.buffer;
    let i = 0;
    while (i < b.length) {
      const lt = b.indexOf("<", i);
      if (lt < 0) {
        this.handler.text(b.slice(i));
        i = b.length;
        break;
      }
      if (lt > i) this.handler.text(b.slice(i, lt));
      i = lt;
      const head = b.slice(lt, lt + 9);
      // A comment or CDATA opener may itself be cut: wait until it can be told apart.
      if (head.length < 9 && ("<!--".startsWith(head) || "<![CDATA[".startsWith(head)) && b.length - lt < 9) break;
      const comment = head.startsWith("<!--");
      const cdata = head === "<![CDATA[";
      const end = comment ? b.indexOf("-->", lt + 4) : cdata ? b.indexOf("]]>", lt + 9) : b.indexOf(">", lt);
      if (end < 0) break; // incomplete: wait for more
      const close = comment || cdata ? end + 2 : end;
      const tag = b.slice(lt + 1, close);
      i = close + 1;
      if (tag[0] === "?" || tag[0] === "!") continue;
      if (tag[0] === "/") {
        this.handler.close(tag.slice(1).trim());
        continue;
      }
      const selfClosing = tag.endsWith("/");
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const space = body.search(/\s/);
      const name = space < 0 ? body : body.slice(0, space);
      this.handler.open(name, space < 0 ? "" : body.slice(space), selfClosing);
      if (selfClosing) this.handler.close(name);
    }
    this.buffer = b.slice(i);
    if (this.buffer.length > this.maxPending) throw this.tooLong();
  }
}

const attributePatterns = new Map<string, RegExp>();

/** The value of attribute `name` in a tag's attribute text, entities decoded; undefined if absent. */
export function attribute(attributes: string, name: string): string | undefined {
  let re = attributePatterns.get(name);
  if (!re) {
    re = new RegExp(`(?:^|\\s)${name.replace(/[:.]/g, "\\$&")}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attributePatterns.set(name, re);
  }
  const m = re.exec(attributes);
  return m ? decodeEntities(m[1] ?? m[2] ?? "") : undefined;
}
