#!/usr/bin/env node
// Builds the widget with esbuild's JS API (no Vite plugin needed):
//   dist/public/widget-core.js  the widget (Preact included), an IIFE
//   dist/public/widget-chunks/{name}.{hash}.js  parts the core loads on demand (src/chunks/:
//                               fr, ar, sse, pow, visitor, files, handoff, blocked, lead-en, lead-fr, lead-ar,
//                               handoff-fr, handoff-ar), each a classic script
//   dist/public/widget.js       the script-tag loader, stamped with the core's content hash
//   widget-sdk/dist/            the npm package @tala/widget: ESM + .d.ts (index, react)
// Usage: node widget-sdk/build.mjs [--public | --package] [--out <dir>] (default: both; out = dist/public).
import { build, transform } from "esbuild";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const args = process.argv.slice(2);
const only = args.includes("--public") ? "public" : args.includes("--package") ? "package" : "all";
const outIndex = args.indexOf("--out");
const out = outIndex >= 0 ? resolve(args[outIndex + 1]) : join(root, "dist/public");

const cssTarget = ["chrome100", "firefox100", "safari15.4"];
export const common = {
  bundle: true,
  platform: "browser",
  target: ["es2022", ...cssTarget],
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
};

/** A value as JavaScript source: the contract's values are data and closed arrow functions. */
function source(value) {
  if (typeof value === "function") {
    const text = value.toString();
    if (!/^(\([^)]*\)|\w+)\s*=>/.test(text)) throw new Error(`widget build: cannot inline function ${text.slice(0, 60)}`);
    return `(${text})`;
  }
  if (value instanceof RegExp) return value.toString();
  if (Array.isArray(value)) return `[${value.map(source).join(",")}]`;
  // Identifier keys stay unquoted: the minifier shortens them (mangleProps) only then.
  if (value && typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}:${source(v)}`).join(",")}}`;
  return value === undefined ? "undefined" : JSON.stringify(value);
}

/**
 * Replaces the contract modules the core imports with their evaluated exports. esbuild keeps whole
 * objects (and every object one of them reads a property of), so importing contract/messages.ts
 * would ship every message of the product; evaluated, the core carries only what it reads.
 */
export const inlineContract = {
  name: "inline-contract",
  setup(b) {
    b.onLoad({ filter: /(widget-sdk[\\/]src[\\/](core[\\/]contract|chunks[\\/]lead-contract)|contract[\\/]widget-strings)\.ts$/ }, async ({ path }) => {
      const bundled = await build({ entryPoints: [path], bundle: true, format: "esm", platform: "neutral", write: false, logLevel: "silent" });
      const code = bundled.outputFiles[0].text;
      const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
      const contents = Object.entries(mod).map(([name, value]) => `export const ${name} = ${source(value)};`).join("\n");
      // The inlined module must behave as the original: same data, same texts from its functions.
      const copy = await import(`data:text/javascript;base64,${Buffer.from(contents).toString("base64")}`);
      const probe = (v) => JSON.stringify(v, (_k, x) => (typeof x === "function" ? x("{x}", 3) : x instanceof RegExp ? String(x) : x));
      if (probe(copy) !== probe(mod)) throw new Error(`widget build: inlining ${path} changed it`);
      return { contents, loader: "js" };
    });
  },
};

/**
 * styles.ts's stylesheet through esbuild's CSS minifier (the source keeps a rule a line): ~30
 * bytes gzip. The template must stay plain text (no `${}`), as the build checks.
 */
const minifyCss = {
  name: "minify-css",
  setup(b) {
    b.onLoad({ filter: /widget-sdk[\\/]src[\\/]core[\\/]styles\.ts$/ }, async ({ path }) => {
      const text = readFileSync(path, "utf8");
      const m = /export const css = `([^`$]*)`;/.exec(text);
      if (!m) throw new Error("widget build: styles.ts must export `css` as one plain template literal");
      const { code } = await transform(m[1], { loader: "css", minify: true, target: cssTarget });
      return { contents: text.replace(m[0], `export const css = ${JSON.stringify(code.trim())};`), loader: "ts" };
    });
  },
};

/**
 * Preact features the widget never uses, cut out of preact's dist at build time (~0.4 KB gzip of the
 * core): option hooks (no preact/hooks, devtools or debug), context, legacy and derived-state
 * lifecycles, shouldComponentUpdate, Suspense and hydration markers, MathML, <template>,
 * <progress>, popover, dangerouslySetInnerHTML (the widget never sets HTML), a document as the
 * render root, callback refs (a chunk's ref is an object, whose `current` setter may act), string
 * styles, moveBefore. Each cut is an exact text of preact's minified file that must occur once: a new
 * Preact version fails the build here until the list is reviewed (the version it was written for
 * is checked too). Only the widget's own bundles: the dashboard's Playground keeps the whole Preact.
 */
const PREACT_VERSION = "11.2.0";
const PREACT_TRIMS = [
  // options hooks: preact/hooks, devtools and debug are not in the widget
  ["return!o&&n.vnode&&n.vnode(e),e}", "return e}"],
  ["n.vnode&&n.vnode(r),", ""],
  ["(8&t.__g||(t.__g|=8,u.push(t),f++))&&i==n.debounceRendering||((i=n.debounceRendering)||queueMicrotask)(H)", "8&t.__g||(t.__g|=8,u.push(t),f++)||queueMicrotask(H)"],
  ["(f=u.length)&&(i||queueMicrotask)(H)", "(f=u.length)&&queueMicrotask(H)"],
  ["(s=n.__b)&&s(r);", ""],
  ["H=n.__r,", ""],
  ["H&&H(r),", ""],
  ["return(s=n.diffed)&&s(r),l}", "return l}"],
  ["n.__c&&n.__c(r,t),", ""],
  ["n.unmount&&n.unmount(t),", ""],
  ["n.__&&n.__(t,r),", ""],
  ["return u(n.event?n.event(r):r)", "return u(r)"],
  ["l&&(n.__m&&n.__m(r,o),l=!1),", ""],
  ["j=(s=V.contextType)&&i[s.__c],L=s?j?j.props.value:s.__:i,", "L=i,"],
  // context, legacy lifecycles, getDerivedState*, shouldComponentUpdate, getSnapshotBeforeUpdate: App uses none
  ["j&&j.sub(d),", ""],
  ["C&&(d.__s||(d.__s=d.state),V.getDerivedStateFromProps&&(d.__s==d.state&&(d.__s=_({},d.__s)),_(d.__s,V.getDerivedStateFromProps(M,d.__s)))),", "C&&(d.__s||(d.__s=d.state)),"],
  ["if(M!==k&&C&&!V.getDerivedStateFromProps&&d.componentWillReceiveProps&&d.componentWillReceiveProps(M,L),r.__v==u.__v&&!(8&d.__g)||!(4&d.__g)&&d.shouldComponentUpdate&&!1===d.shouldComponentUpdate(M,d.__s,L))", "if(r.__v==u.__v&&!(8&d.__g))"],
  ["d.componentWillUpdate&&d.componentWillUpdate(M,d.__s,L),", ""],
  ["}else C&&!V.getDerivedStateFromProps&&d.componentWillMount&&d.componentWillMount(),C&&", "}else C&&"],
  ["d.getChildContext&&(i=_({},i,d.getChildContext())),C&&u.__c&&d.getSnapshotBeforeUpdate&&(m=d.getSnapshotBeforeUpdate(k,b)),", ""],
  ["(e=(o=i.constructor)&&o.getDerivedStateFromError)&&i.setState(o.getDerivedStateFromError(n)),", ""],
  ["128&u.__u&&(c=32&u.__u,s=u.__c.__z)&&(r.__u|=c,p=o=[],8==s.nodeType?l=B(s,o):o.push(s),l=o[0]||l),", ""],
  // Suspense (a thrown promise) and its hydration markers: no lazy() nor hydrate()
  ["p&&p.some(g),", ""],
  ["if(t&&t.then){if(r.__u|=128|c,o){for(~(T=o.indexOf(l||void 0))||(T=o.length);(N=o[T-1])&&8==N.nodeType;)T--;for(;T<o.length;T++)if(N=o[T])if(o[T]=null,O){if(N==P)break}else{if(8!=N.nodeType)break;N.data.startsWith(\"$s\")&&(P=B(O=N))}}if(!O){for(;l&&8==l.nodeType&&l.nextSibling;)l=l.nextSibling;O=l}(s=B(O=r.__c.__z||(r.__c.__z=O)))?(r.__e=O,l=s):r.__e=l,l=l&&l.nextSibling}else o&&o.some(g);", "o&&o.some(g);"],
  ["t&&t.then||D(r),", "D(r),"],
  ["!u&&(i=t.__c)&&(i=i.__z)&&(f=B(i,o=[]))&&(i==t.__e&&o.some(g),g(f),g(i)),", ""],
  ["\"math\"==C?f=\"http://www.w3.org/1998/Math/MathML\":", ""],
  // MathML, <template>, <progress>, popover, dangerouslySetInnerHTML, a document as the root
  ["a=\"template\"==C&&t.content||t,", "a=t,"],
  ["\"dangerouslySetInnerHTML\"==s?y=k:", ""],
  ["\"dangerouslySetInnerHTML\"==s?h=k:", ""],
  ["h?(l||y&&(h.__html==y.__html||h.__html==t.innerHTML)||(t.innerHTML=h.__html),r.__k=[]):(y&&(t.textContent=\"\"),(\"foreignObject\"==C||\"http://www.w3.org/1998/Math/MathML\"==f&&v.test(C))&&(f=\"http://www.w3.org/1999/xhtml\"),", "(\"foreignObject\"==C&&(f=\"http://www.w3.org/1999/xhtml\"),"],
  ["\"progress\"==C&&null==b?t.removeAttribute(s):null==b||b===t[s]&&(\"progress\"!=C||b)||N(t,s,b,$[s],f)", "null==b||b===t[s]||N(t,s,b,$[s],f)"],
  ["&&\"popover\"!=t&&t in n", "&&t in n"],
  // attributes the widget never sets (list, form, download, rowSpan, colSpan: the rest stay attributes) and capture-phase handlers (no onXxxCapture)
  ["\"list\"!=t&&\"form\"!=t&&\"tabIndex\"!=t&&\"download\"!=t&&\"rowSpan\"!=t&&\"colSpan\"!=t&&", "\"tabIndex\"!=t&&"],
  ["f=t!=(t=t.replace(l,\"$1\")),", ""],
  [",l=/(PointerCapture)$|Capture$/i", ""],
  // one class component (App): the render queue never holds two, so no sorting by depth
  ["u.length>t&&u.sort(o),", ""],
  [",o=function(n,t){return n.__v.__b-t.__v.__b}", ""],
  ["n.setAttribute(t,\"popover\"==t&&1==r?\"\":r)", "n.setAttribute(t,r)"],
  ["9==r.nodeType&&(r=r.documentElement),", ""],
  [",v=/^m(i|n|o|s|text|space)$/", ""],
  // portals (createPortal), customized built-ins, defaultValue/defaultChecked, SVG's xlink/className spellings, setState, isValidElement
  ["\"function\"!=typeof n.type||n.props.__P?null:S(n)", "\"function\"!=typeof n.type?null:S(n)"],
  ["if((n=n.__)&&n.__c&&!n.props.__P)", "if((n=n.__)&&n.__c)"],
  ["if(n.props.__P)return t;", ""],
  ["M.__P&&(s=l,f=(t=M.__P).namespaceURI,c=o=null,u.props&&u.props.__P!=t&&(u.__k.some(function(n){n&&J(n,n)}),u.__k=null),l=u.__k?S(u,0):null),", ""],
  ["M.__P&&(r.__e=null,l=s),", ""],
  ["\"function\"!=typeof t.type||u&&!t.props.__P", "\"function\"!=typeof t.type||u"],
  // moveBefore (a move that keeps an element's state, where the browser has it): the widget's lists
  // keep their order (messages are appended, chips removed), so a plain insertBefore as Preact 10 did
  ["(!u&&r.moveBefore&&o.parentNode?r.moveBefore(o,t):r.insertBefore(o,t||null))", "r.insertBefore(o,t||null)"],
  // no comment nodes among the widget's (Preact makes them only for Suspense's hydration markers): nothing to skip around an insertion
  ["for(t&&!t.parentNode&&(t=S(n))&&!t.parentNode&&(t=null),o=n.__e,e=t;e&&8==e.nodeType;)e=e.nextSibling;for(o!=e&&r.insertBefore(o,t||null),t=o;(t=t&&t.nextSibling)&&8==t.nodeType&&!t.data.startsWith(\"$s\"););return t}", "t&&!t.parentNode&&(t=S(n))&&!t.parentNode&&(t=null),o=n.__e,o!=t&&r.insertBefore(o,t||null);return o&&o.nextSibling}"],
  // and for the same reason no longest-increasing-subsequence of moved children: when one moved
  // (never, in practice), every child is placed again in order, as Preact 10 did
  ["if(g){for(a=[],s=[],f=0;f<i;f++)if((o=k[f])&&16&o.__u){for(_=0,p=a.length;_<p;)a[y=_+p>>1]<o.__i?_=y+1:p=y;a[_]=o.__i,s[f]=_+1}for(_=a.length;f--;)s[f]&&(s[f]==_?_--:k[f].__u|=4)}", "if(g)for(f=0;f<i;f++)(o=k[f])&&(o.__u|=4);"],
  ["M=a.ownerDocument||document,", "M=document,"],
  ["t=M.createElementNS(f,C,x.is?x:a)", "t=M.createElementNS(f,C)"],
  ["o=\"textarea\"==C&&null!=x.defaultValue?null:o&&d.call(a.childNodes)", "o=o&&d.call(a.childNodes)"],
  ["\"value\"==s&&\"defaultValue\"in x||\"checked\"==s&&\"defaultChecked\"in x||", ""],
  ["if(\"http://www.w3.org/2000/svg\"==i)t=t.replace(/xlink(H|:h)/,\"h\").replace(/sName$/,\"s\");else if(", "if(\"http://www.w3.org/2000/svg\"!=i&&"],
  ["r=function(n){return null!=n&&n.constructor===h},", ""],
  // refs are createRef objects only (no callback refs and their cleanups); style is always an object (set through the CSSOM, never cssText)
  ["\"function\"==typeof t?r?r.__x=t(r)||1:i&&(i=i.__c||i.__e)&&(r=i.__x)&&(i.__x=null,\"function\"==typeof r?r():t(null)):t.current=r", "t.current=r"],
  ["if(\"string\"==typeof r)n.style.cssText=r;else{if(\"string\"==typeof u&&(n.style.cssText=u=\"\"),u)", "{if(u)"],
  ["x.prototype.setState=function(n,t){var r=this.__s;r&&r!=this.state||(r=this.__s=_({},this.state)),\"function\"==typeof n&&(n=n(_({},r),this.props)),n&&(_(r,n),this.__v&&(t&&this.__k.push(t),L(this)))},", ""],
];
export const trimPreact = {
  name: "trim-preact",
  setup(b) {
    b.onLoad({ filter: /[\\/]preact[\\/]dist[\\/]preact\.mjs$/ }, ({ path }) => {
      const version = JSON.parse(readFileSync(join(dirname(path), "../package.json"), "utf8")).version;
      if (version !== PREACT_VERSION) throw new Error(`widget build: preact ${version}, the trims are for ${PREACT_VERSION}: review PREACT_TRIMS`);
      let code = readFileSync(path, "utf8");
      for (const [from, to] of PREACT_TRIMS) {
        if (code.split(from).length !== 2) throw new Error(`widget build: preact trim not found once: ${from.slice(0, 60)}`);
        code = code.replace(from, () => to);
      }
      return { contents: code, loader: "js" };
    });
  },
};

/**
 * Property names only the core itself reads (the contract values it carries, its UI strings, its
 * internal state), shortened by the minifier. Never a name that crosses a boundary: the wire's
 * fields, DOM attributes, the loader's calls, the host's events (those are listed in KEEP).
 */
const KEEP = new Set(["placeholder", "send", "stop", "thinking", "sources", "assistant", "remaining", "title", "open", "close", "toggle", "setLocale", "destroy", "identify", "logout", "conversations"]);
const INTERNAL = ["rate", "busy", "notice", "attachments", "dark", "blocking", "fresh", "stick", "launcher", "wasOpen", "onFrame", "onLost", "setOpen", "subscribe", "addFiles", "removeFile", "newConversation", "retry", "config", "panel", "log", "input", "file", "submit", "off", "root", "draft", "failed", "plus", "yes", "asking", "confirm", "verified", "list", "shown", "show", "redo", "strings", "reopen", "showConversations", "wasList", "readStream", "prove", "readFiles", "token", "chunk", "tail", "chips", "part", "handing", "bar", "idle", "offer", "srvHost", "srvKey", "visTok", "rfr", "rnw", "say", "renew", "collect", "ensure", "view", "byHandoff", "why", "seen", "sent", "count", "vals", "errs", "line", "jump", "lede", "mine", "sid", "langs"];
// The Controller's fields that the dashboard's playground subclass sets (src/core/playground.ts).
INTERNAL.push("currentSession", "transport");
INTERNAL.push("epoch", "renewed", "refusal", "fail", "api", "said", "answer", "once", "kept", "leadPart");
INTERNAL.push("props", "forceUpdate", "componentDidUpdate", "componentDidMount", "componentWillUnmount", "componentDidCatch", "context");
async function mangledNames() {
  const names = new Set(INTERNAL);
  for (const file of ["src/core/contract.ts", "../contract/widget-strings.ts"]) {
    const code = (await build({ entryPoints: [join(here, file)], bundle: true, format: "esm", platform: "neutral", write: false, logLevel: "silent" })).outputFiles[0].text;
    const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
    for (const value of Object.values(mod)) {
      const obj = value?.en ?? value;
      if (obj && typeof obj === "object" && !Array.isArray(obj)) Object.keys(obj).forEach((k) => names.add(k));
    }
  }
  return new RegExp(`^(${[...names].filter((n) => !KEEP.has(n) && /^[a-zA-Z]\w*$/.test(n)).join("|")})$`);
}

/**
 * Builds one IIFE in memory and returns its text. esbuild bundles, inlines the contract and
 * shortens the internal property names; oxc's minifier (vite's `minifySync`) then renames the
 * variables again and compresses a little further: ~240 bytes gzip less on widget-core.js than
 * esbuild's minifier alone, for the same code.
 */
async function iife(entry, define = {}, mangleProps, mangleCache) {
  const result = await build({ ...common, entryPoints: [join(here, entry)], format: "iife", minify: true, write: false, define, mangleProps, mangleCache, plugins: [inlineContract, minifyCss, trimPreact] });
  // The core and its chunks share one cache: a property a chunk reads has the core's short name.
  if (mangleCache) Object.assign(mangleCache, result.mangleCache);
  const { minifySync } = await import("vite");
  const oxc = minifySync(entry, result.outputFiles[0].text, { compress: { target: "es2022" }, mangle: true });
  if (oxc.errors.length) throw new Error(`widget build: oxc minify of ${entry}: ${oxc.errors[0].message}`);
  return oxc.code;
}

/** The chunks of src/chunks/ (src/core/chunks.ts loads them), in build order. */
export const chunkNames = ["fr", "ar", "sse", "pow", "visitor", "files", "handoff", "blocked", "lead-en", "lead-fr", "lead-ar", "handoff-fr", "handoff-ar"];

export async function buildPublic(dir = out) {
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, "widget-chunks"), { recursive: true, force: true });
  mkdirSync(join(dir, "widget-chunks"), { recursive: true });
  const names = await mangledNames();
  const cache = {};
  const chunks = {};
  const files = {};
  const hash = createHash("sha256");
  for (const name of chunkNames) {
    const code = await iife(`src/chunks/${name}.ts`, {}, names, cache);
    hash.update(code);
    // The BOM, as for the core, where a chunk is not ASCII: its strings are read as UTF-8 whatever the page says.
    chunks[name] = /[^ -~\s]/.test(code) ? `\uFEFF${code}` : code;
  }
  // One content hash for the build's chunks (the core carries 8 characters, not one name each):
  // any change to any chunk gives them all new names, so a core never loads another build's.
  const chunkVersion = hash.digest("hex").slice(0, 8);
  for (const name of chunkNames) files[name] = `widget-chunks/${name}.${chunkVersion}.js`;
  const shared = JSON.stringify(cache);
  const core = await iife("src/core/index.tsx", { __TALA_CHUNKS__: JSON.stringify(chunkVersion) }, names, cache);
  // A name first given in the core build could collide with a chunk's: every chunk name is fixed before.
  for (const [k, v] of Object.entries(JSON.parse(shared))) if (cache[k] !== v) throw new Error(`widget build: mangled name of ${k} changed`);
  if (/Ouvrir|\u0641\u062a\u062d/.test(core)) throw new Error("widget build: the core must carry English only (fr, ar are chunks)");
  for (const name of chunkNames) writeFileSync(join(dir, files[name]), chunks[name]);
  const version = createHash("sha256").update(core).digest("hex").slice(0, 10);
  const loader = await iife("src/loader.ts", { __TALA_CORE_VERSION__: JSON.stringify(version) });
  if (/Ouvrir|\u0641\u062a\u062d/.test(loader)) throw new Error("widget build: the loader must not carry the UI strings");
  // UTF-8 output (the Arabic strings are half the size unescaped) behind a BOM, which decides the
  // script's encoding whatever the host page's charset or the server's content-type say.
  writeFileSync(join(dir, "widget-core.js"), `\uFEFF${core}`);
  writeFileSync(join(dir, "widget.js"), loader);
  const kb = (s) => `${(gzipSync(s, { level: 9 }).length / 1024).toFixed(2)} (${gzipSync(s, { level: 9 }).length} B)`;
  console.log(`widget: widget.js ${kb(loader)} KB gzip, widget-core.js ${kb(core)} KB gzip (core ${version})`);
  for (const name of chunkNames) console.log(`widget:   ${files[name]} ${kb(chunks[name])} KB gzip`);
  return { loader, core, version, chunks, files };
}

export async function buildPackage() {
  const dist = join(here, "dist");
  rmSync(dist, { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: [join(here, "src/index.ts"), join(here, "src/react.ts")],
    outdir: dist,
    format: "esm",
    splitting: true,
    external: ["react"],
    chunkNames: "[name]-[hash]",
    define: { __TALA_CORE_VERSION__: "undefined" },
    plugins: [inlineContract],
  });
  // Declarations: tsc writes them under the files' common root (the repo, since the facade reads
  // contract/widget-strings.ts); the package ships only its own, which reference nothing outside.
  const types = join(dist, ".types");
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(here, "tsconfig.build.json"), "--outDir", types], { stdio: "inherit" });
  for (const file of readdirSync(join(types, "widget-sdk/src"))) {
    if (!file.endsWith(".d.ts")) continue;
    const text = readFileSync(join(types, "widget-sdk/src", file), "utf8");
    if (/from "\.\.\//.test(text)) throw new Error(`widget build: ${file} points outside the package`);
    writeFileSync(join(dist, file), text);
  }
  rmSync(types, { recursive: true, force: true });
  console.log("widget: package built in widget-sdk/dist");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (only !== "package") await buildPublic();
  if (only !== "public") await buildPackage();
}
