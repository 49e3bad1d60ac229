// A small website for the crawler's tests (integration and E2E): Tala crawls it over loopback,
// which local mode allows. What it serves:
//   /robots.txt            disallows /private/, names /sitemap.xml
//   /sitemap.xml           lists /, /pricing, /private/secret, /old-page, /missing, /files/guide.pdf, and /pricing again
//   /                      the home page: nav, cookie banner, footer around the main text
//   /pricing               prices in a table (its text changes with /__set?pricing=2)
//   /private/secret        disallowed by robots.txt (never fetched by a polite crawler: counted in /__hits)
//   /old-page              301 → /new-page (the refund policy)
//   /missing               404
//   /files/guide.pdf       application/pdf (not a web page)
//   /docs/ /docs/a /docs/b no sitemap entries: reached by following links from /docs/ (b goes with /__set?docsB=0;
//                          /__set?swap=1 moves b's text to a and gives b new text)
//   /docs/list             "noindex, follow": not indexed, but its link to /docs/c is followed
//   /__set?robots=503      robots.txt answers 503 (the site is down for a moment)
// Every HTML page has an ETag and answers 304 to a matching If-None-Match. /__hits lists the requests
// (path, user agent, conditional) and /__set changes the content; both for tests only.
import { createHash } from "node:crypto";
import { createServer } from "node:http";

const page = (title, main, { links = [], robots = "" } = {}) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${robots ? `<meta name="robots" content="${robots}">` : ""}
<style>body{font-family:sans-serif}</style><script>window.analytics = "</div> not markup";</script></head>
<body>
<header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/docs/">Docs</a></nav></header>
<div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. Accept all cookies?</div>
<main>${main}${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</main>
<footer>© Harbor Kettles 2026 · Imprint · Careers at Harbor</footer>
</body></html>`;

function pages(state) {
  return {
    "/": page(
      "Harbor Kettles",
      `<h1>Harbor Kettles</h1><p>Harbor Kettles makes copper kettles by hand in Porto since 1962.</p>
       <h2>Opening hours</h2><ul><li>Monday to Friday: 9:00 to 18:00</li><li>Saturday: 10:00 to 14:00</li></ul>`,
      { links: ["/pricing", "/files/guide.pdf"] },
    ),
    "/pricing": page(
      "Pricing",
      state.pricing === 2
        ? `<h1>Pricing</h1><table><tr><th>Model</th><th>Price</th></tr><tr><td>Tagus kettle</td><td>149 euros</td></tr></table>`
        : `<h1>Pricing</h1><table><tr><th>Model</th><th>Price</th></tr><tr><td>Douro kettle</td><td>89 euros</td></tr><tr><td>Minho kettle</td><td>119 euros</td></tr></table>`,
    ),
    "/private/secret": page("Secret", "<p>The vault combination is 4-8-15-16.</p>"),
    "/new-page": page("Refund policy", "<h1>Refund policy</h1><p>Kettles can be returned within 45 days for a full refund, no questions asked.</p>"),
    "/docs/": page("Docs", "<h1>Documentation</h1><p>Start here to descale your kettle.</p>", {
      links: ["/docs/a", "/docs/a#top", ...(state.docsB ? ["/docs/b"] : []), "/docs/list", "https://elsewhere.example/", "/pricing"],
    }),
    "/docs/a": state.swap
      ? page("Warranty", `<h1>Warranty</h1><p>${WARRANTY}</p>`, { links: ["/docs/"] })
      : page("Descaling", "<h1>Descaling</h1><p>Descale with white vinegar and water, one part to three, every month.</p>", { links: ["/docs/"] }),
    ...(state.docsB
      ? { "/docs/b": state.swap ? page("Lids", "<h1>Lids</h1><p>Spare lids fit every kettle made since 1990.</p>") : page("Warranty", `<h1>Warranty</h1><p>${WARRANTY}</p>`) }
      : {}),
    "/docs/list": page("All guides", "<h1>All guides</h1>", { links: ["/docs/c"], robots: "noindex, follow" }),
    "/docs/c": page("Whistles", "<h1>Whistles</h1><p>Kettle whistles can be replaced at any Harbor shop.</p>"),
  };
}

const WARRANTY = "Every kettle carries a lifetime warranty on the copper body.";

/** Starts the site on a free loopback port. */
export function startTestSite() {
  const state = { pricing: 1, docsB: true, swap: false, robots: 200 };
  const hits = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    if (path === "/__hits") return send(res, 200, "application/json", JSON.stringify(hits));
    if (path === "/__set") {
      if (url.searchParams.has("pricing")) state.pricing = Number(url.searchParams.get("pricing"));
      if (url.searchParams.has("docsB")) state.docsB = url.searchParams.get("docsB") === "1";
      if (url.searchParams.has("swap")) state.swap = url.searchParams.get("swap") === "1";
      if (url.searchParams.has("robots")) state.robots = Number(url.searchParams.get("robots"));
      if (url.searchParams.has("reset")) hits.length = 0;
      return send(res, 200, "application/json", JSON.stringify(state));
    }
    hits.push({ path, userAgent: req.headers["user-agent"] ?? "", conditional: Boolean(req.headers["if-none-match"] || req.headers["if-modified-since"]) });
    const base = `http://${req.headers.host}`;
    if (path === "/robots.txt" && state.robots !== 200) return send(res, state.robots, "text/plain", "unavailable");
    if (path === "/robots.txt") return send(res, 200, "text/plain", `User-agent: *\nDisallow: /private/\n\nSitemap: ${base}/sitemap.xml\n`);
    if (path === "/sitemap.xml") {
      const locs = ["/", "/pricing", "/private/secret", "/old-page", "/missing", "/files/guide.pdf", "/pricing"];
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${base}${l}</loc></url>`).join("")}</urlset>`;
      return send(res, 200, "application/xml", body);
    }
    if (path === "/old-page") {
      res.writeHead(301, { location: "/new-page" });
      return res.end();
    }
    if (path === "/files/guide.pdf") return send(res, 200, "application/pdf", "%PDF-1.4 not really a pdf");
    const html = pages(state)[path];
    if (!html) return send(res, 404, "text/html", "<h1>Not found</h1>");
    const etag = `"${createHash("sha256").update(html).digest("hex").slice(0, 16)}"`;
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag });
      return res.end();
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", etag });
    res.end(html);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done(undefined))) });
    });
  });
}

function send(res, status, type, body) {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}
