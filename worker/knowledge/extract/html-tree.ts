import { knowledgeLimits } from "../../../contract";
import { scanHtml, type HtmlAttributes, type HtmlTokenSink } from "./html-tokens";

/** An element as the tree opens it. */
export interface HtmlElement {
  readonly name: string;
  readonly attrs: HtmlAttributes;
  /** The start tag's position among the document's start tags: the same in every pass over one text. */
  readonly ordinal: number;
}

/** What a reader of the tree receives: strictly nested enter/leave pairs and the text between them. */
export interface HtmlTreeHandler {
  enter(element: HtmlElement): void;
  leave(element: HtmlElement): void;
  /** Character data of the current element, entities not decoded. */
  text(raw: string): void;
  /** The content of the current raw-text element (script, style, title, textarea…), or of a CDATA section ("#cdata") in svg/math. */
  rawText(name: string, raw: string): void;
  /** True once the handler wants nothing more: the scan stops. */
  readonly stopped: boolean;
  tick?(): void;
}

const set = (names: string) => new Set(names.split(" "));
const voidElements = set("area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr");
/** Start tags that close an open <p> (WHATWG "in body" insertion mode). */
const closesP = set(
  "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li dd dt listing main menu nav ol p plaintext pre search section summary table ul xmp",
);
/** Elements an end tag of another name never closes ("special" in the WHATWG parser). */
const special = set(
  "address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp",
);
/** Boundaries of an element's "scope": an end tag does not reach past them. */
const scopeBoundaries = set("applet caption html table td th marquee object template svg math");
const headings = set("h1 h2 h3 h4 h5 h6");
const tableParts = set("caption tbody thead tfoot tr td th");
const headContent = set("base basefont bgsound link meta noscript script style template title");

interface OpenElement extends HtmlElement {
  foreign: boolean;
}

/**
 * The open-element stack of an HTML document, enough of the WHATWG tree construction for text:
 * void elements, implied end tags (a new <p>, <li>, <dt>/<dd>, <tr>, <td>, heading or <a> closes
 * the open one), end tags that only close what is in scope (a stray </div> inside a table cell or a
 * </span> across a <div> is ignored), <head> closed by the first body content, </body> and </html>
 * ignored, "/>" closing elements inside svg and math. Every step is O(1) amortised: open elements
 * are indexed by name and scope boundary, so no step walks the stack. Past `maxNestingDepth` open
 * elements, a start tag opens an empty element and its content belongs to the deepest one open.
 */
class HtmlTree implements HtmlTokenSink {
  private readonly stack: OpenElement[] = [];
  /** Stack indices of the open elements, by name. */
  private readonly byName = new Map<string, number[]>();
  private readonly scopes: number[] = [];
  private readonly specials: number[] = [];
  private foreignDepth = 0;
  private ordinal = 0;

  constructor(
    private readonly handler: HtmlTreeHandler,
    private readonly maxDepth: number,
  ) {}

  get foreign(): boolean {
    return this.foreignDepth > 0;
  }

  get stopped(): boolean {
    return this.handler.stopped;
  }

  tick(): void {
    this.handler.tick?.();
  }

  private top(name: string): number {
    const at = this.byName.get(name);
    return at && at.length ? at[at.length - 1]! : -1;
  }

  private get scopeTop(): number {
    return this.scopes.length ? this.scopes[this.scopes.length - 1]! : -1;
  }

  private get current(): OpenElement | undefined {
    return this.stack[this.stack.length - 1];
  }

  private push(element: OpenElement): void {
    const index = this.stack.length;
    this.stack.push(element);
    let at = this.byName.get(element.name);
    if (!at) this.byName.set(element.name, (at = []));
    at.push(index);
    if (scopeBoundaries.has(element.name)) this.scopes.push(index);
    if (special.has(element.name)) this.specials.push(index);
    if (element.foreign) this.foreignDepth++;
    this.handler.enter(element);
  }

  private pop(): void {
    const element = this.stack.pop()!;
    const at = this.byName.get(element.name)!;
    at.pop();
    // Empty lists are kept for reuse (a <li> opens and closes thousands of times) unless a flood of
    // distinct names would pile them up.
    if (!at.length && this.byName.size > 1024) this.byName.delete(element.name);
    if (scopeBoundaries.has(element.name)) this.scopes.pop();
    if (special.has(element.name)) this.specials.pop();
    if (element.foreign) this.foreignDepth--;
    this.handler.leave(element);
  }

  /** Closes every element from the top down to (and including) the one at `index`. */
  private popTo(index: number): void {
    while (this.stack.length > index) this.pop();
  }

  /** Closes the nearest open `name` when it is above `boundary` (a stack index). */
  private closeAbove(name: string, boundary: number): void {
    const at = this.top(name);
    if (at > boundary) this.popTo(at);
  }

  private impliedEnds(name: string): void {
    if (this.top("head") >= 0 && !headContent.has(name)) this.popTo(this.top("head"));
    if (closesP.has(name)) this.closeAbove("p", Math.max(this.scopeTop, this.top("button")));
    if (name === "li") this.closeAbove("li", Math.max(this.scopeTop, this.top("ul"), this.top("ol")));
    else if (name === "dt" || name === "dd") {
      const boundary = Math.max(this.scopeTop, this.top("dl"));
      this.closeAbove("dt", boundary);
      this.closeAbove("dd", boundary);
    } else if (name === "td" || name === "th" || name === "tr" || name === "tbody" || name === "thead" || name === "tfoot") {
      const table = this.top("table");
      this.closeAbove("td", table);
      this.closeAbove("th", table);
      if (name !== "td" && name !== "th") this.closeAbove("tr", table);
    } else if (headings.has(name) && this.current && headings.has(this.current.name)) this.pop();
    else if ((name === "option" || name === "optgroup") && this.current?.name === "option") this.pop();
    else if (name === "a" || name === "nobr") this.closeAbove(name, this.scopeTop);
  }

  startTag(name: string, attrs: HtmlAttributes, selfClosing: boolean): void {
    const ordinal = this.ordinal++;
    const inForeign = this.foreignDepth > 0;
    if (!inForeign) {
      if ((name === "html" || name === "body" || name === "head") && this.top(name) >= 0) return;
      if (name === "head" && this.top("body") >= 0) return;
      this.impliedEnds(name);
    }
    const element: OpenElement = { name, attrs, ordinal, foreign: inForeign || name === "svg" || name === "math" };
    const empty = (!element.foreign && voidElements.has(name)) || (element.foreign && selfClosing) || this.stack.length >= this.maxDepth;
    if (!empty) return this.push(element);
    this.handler.enter(element);
    this.handler.leave(element);
  }

  endTag(name: string): void {
    // </body> and </html> close nothing: content after them is still the body's (as in browsers).
    if (name === "body" || name === "html") return;
    if (name === "br" && this.foreignDepth === 0) return this.startTag("br", new Map(), false);
    const at = this.top(name);
    if (at < 0) return;
    if (this.current?.foreign) return this.popTo(at);
    // Table parts close within the innermost table ("table scope": a cell's </td> passes a <div> or a
    // <p>, a </table> passes its cells); other special elements within the default scope; any other
    // element only when no special element is open above it.
    let boundary: number;
    if (name === "table") boundary = Math.max(this.top("template"), this.top("html"));
    else if (tableParts.has(name)) boundary = Math.max(this.top("table"), this.top("template"), this.top("html"));
    else if (special.has(name) || scopeBoundaries.has(name)) boundary = at === this.scopeTop ? at - 1 : this.scopeTop;
    else boundary = this.specials.length ? this.specials[this.specials.length - 1]! - 1 : -1;
    if (at > boundary) this.popTo(at);
  }

  text(raw: string): void {
    // Text other than whitespace ends the <head> (browsers move it into the body).
    if (this.top("head") >= 0 && /\S/.test(raw)) this.popTo(this.top("head"));
    this.handler.text(raw);
  }

  rawText(name: string, raw: string): void {
    this.handler.rawText(name, raw);
  }

  /** Closes what is still open at the end of the input. */
  end(): void {
    this.popTo(0);
  }
}

/**
 * Reads `html` once into `handler` as a tree of strictly nested elements; every element opened is
 * left, at its end tag, when an implied end closes it, or at the end of the input. Linear time;
 * the open stack is capped at `maxDepth` (default `knowledgeLimits.maxNestingDepth`).
 */
export function walkHtml(html: string, handler: HtmlTreeHandler, maxDepth: number = knowledgeLimits.maxNestingDepth): void {
  const tree = new HtmlTree(handler, maxDepth);
  scanHtml(html, tree);
  tree.end();
}
