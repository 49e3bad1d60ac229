import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildHeadersFile, widgetScriptPaths } from "../../scripts/headers/build";
import { apiHeaders, inlineScriptHashes, pagePolicy, widgetScriptHeaders } from "./security-headers";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("hashes each inline script once, and skips scripts with src and empty ones", async () => {
    const html = `<script>a()</script><script type="module" src="/x.js"></script><script>\n b() \n</script><script>a()</script><script> </script>`;
    expect(await inlineScriptHashes(html)).toEqual([sha("a()"), sha("\n b() \n")]);
  });
});

describe("pagePolicy", () => {
  it("admits scripts from this origin and the given hashes only, and forbids framing", () => {
    const csp = pagePolicy({ scriptHashes: [sha("a()")] });
    expect(csp).toContain(`script-src 'self' ${sha("a()")};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toContain("googleapis");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it("admits Firebase's hosts only when Google sign-in is configured", () => {
    const csp = pagePolicy({ scriptHashes: [], firebaseAuthDomain: "tala-x.firebaseapp.com" });
    expect(csp).toContain("script-src 'self' https://apis.google.com;");
    expect(csp).toContain("https://identitytoolkit.googleapis.com");
    expect(csp).toContain("frame-src 'self' https://tala-x.firebaseapp.com;");
  });
});

describe("the _headers file", () => {
  it("gives every file the page policy with all pages' hashes, and the widget's scripts their own", async () => {
    const text = await buildHeadersFile({ html: ["<script>a()</script>", "<script>b()</script><script>a()</script>"], https: false });
    const [all, ...widget] = text.split(/\n(?=\/widget)/);
    expect(all).toMatch(/^# .*\n\/\*\n/);
    expect(all).toContain(sha("a()"));
    expect(all).toContain(sha("b()"));
    expect(all).toContain("x-frame-options: DENY");
    expect(all).not.toContain("strict-transport-security");
    expect(widget.map((rule) => rule.split("\n")[0])).toEqual([...widgetScriptPaths]);
    for (const rule of widget) {
      expect(rule).toContain("! content-security-policy");
      expect(rule).toContain("! x-frame-options");
      expect(rule).toContain(`content-security-policy: ${widgetScriptHeaders["content-security-policy"]}`);
      expect(rule).toContain("cross-origin-resource-policy: cross-origin");
    }
    expect(apiHeaders["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("adds HSTS only for an https site", async () => {
    expect(await buildHeadersFile({ html: [], https: true })).toContain("strict-transport-security: max-age=31536000");
  });
});
