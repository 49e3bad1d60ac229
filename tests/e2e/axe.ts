import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page, type TestInfo } from "@playwright/test";

/**
 * Accessibility and layout checks for E2E specs: axe-core (the copy in node_modules) run in the
 * page, and the page's sideways overflow. axe is evaluated through the DevTools protocol, so the
 * page's Content-Security-Policy does not block it.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeFinding {
  id: string;
  impact: string;
  targets: string[];
}

/** axe's violations on the page as it is now, at `impacts` (serious and critical unless told). */
export async function axeFindings(page: Page, impacts: readonly string[] = ["serious", "critical"]): Promise<AxeFinding[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? "", targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(" ")) }));
  });
  return violations.filter((v) => impacts.includes(v.impact));
}

/** No serious or critical axe finding (and none of `impacts` when given). */
export async function expectNoAxeFindings(page: Page, impacts?: readonly string[]) {
  expect(await axeFindings(page, impacts)).toEqual([]);
}

/** The page scrolls sideways by this many pixels (0: it does not); and the widest elements past the window's edge. */
export async function sidewaysOverflow(page: Page): Promise<{ overflow: number; widest: string[] }> {
  return page.evaluate(() => {
    const overflow = Math.max(0, document.documentElement.scrollWidth - window.innerWidth);
    const widest: string[] = [];
    if (overflow > 0) {
      for (const el of document.querySelectorAll("body *")) {
        const box = el.getBoundingClientRect();
        if (box.right > window.innerWidth + 1) widest.push(`${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)} (${Math.round(box.right)} px)`);
      }
    }
    return { overflow, widest: widest.slice(0, 5) };
  });
}

/** A screenshot in the test's output folder (test-results/…/<name>.png), to look at after a run. */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });
}
