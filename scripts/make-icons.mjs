#!/usr/bin/env node
// Rasterises Tala's SVG logo into the PNG icons of the web app manifest, the apple-touch-icon and
// the Open Graph image, with Chromium (playwright-core). Run it after changing
// marketing/static/icons/{logo,maskable}.svg; the PNGs are committed as source assets.
//   node scripts/make-icons.mjs        (CHROME_PATH overrides /usr/bin/chromium)
import { chromium } from "playwright-core";
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "marketing/static/icons");
const logo = readFileSync(join(dir, "logo.svg"), "utf8");
const maskable = readFileSync(join(dir, "maskable.svg"), "utf8");
const dataUrl = (svg) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;

/** Each output: file, size, and the HTML body drawn at that size. */
const square = (svg, size, pad = 0) =>
  `<img src="${dataUrl(svg)}" style="position:absolute;left:${pad}px;top:${pad}px;width:${size - 2 * pad}px;height:${size - 2 * pad}px">`;
const outputs = [
  { file: "icon-192.png", width: 192, height: 192, html: square(logo, 192), transparent: true },
  { file: "icon-512.png", width: 512, height: 512, html: square(logo, 512), transparent: true },
  { file: "maskable-512.png", width: 512, height: 512, html: square(maskable, 512) },
  // iOS rounds the corners itself and shows transparency as black: full-bleed square.
  { file: "apple-touch-icon.png", width: 180, height: 180, html: square(maskable, 180) },
  {
    file: "og-image.png",
    width: 1200,
    height: 630,
    html: `<div style="position:absolute;inset:0;background:#0b1120;display:flex;align-items:center;gap:56px;padding:0 96px;font-family:system-ui,'DejaVu Sans',sans-serif">
<img src="${dataUrl(logo)}" style="width:260px;height:260px;flex:none">
<div><div style="color:#fff;font-size:120px;font-weight:800;letter-spacing:-4px;line-height:1">Tala</div>
<div style="color:#c7d4ee;font-size:46px;line-height:1.25;margin-top:24px">AI assistants for you<br>and your website</div></div></div>`,
  },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  for (const o of outputs) {
    const page = await browser.newPage({ viewport: { width: o.width, height: o.height }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${o.html}</body></html>`);
    // Runs in the page, where `document` exists.
    await page.evaluate(() => Promise.all([...globalThis.document.images].map((img) => img.decode())));
    await page.screenshot({ path: join(dir, o.file), omitBackground: Boolean(o.transparent), clip: { x: 0, y: 0, width: o.width, height: o.height } });
    await page.close();
    console.log(`wrote marketing/static/icons/${o.file}`);
  }
} finally {
  await browser.close();
}
