import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { visitorIdentityUi } from "../../contract";
import { generateIdentitySecret, importIdentitySecret, verifyVisitorToken } from "./visitor-token";

/**
 * The root README's "Signed visitors" examples, run as they are printed (Node, and Python when
 * python3 is installed), must make tokens Tala's verifier accepts.
 */
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const section = readme.slice(readme.indexOf("**Signed visitors.**"));
const block = (lang: string) => {
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section);
  if (!match) throw new Error(`no ${lang} example in the README's Signed visitors section`);
  return match[1]!.replace(/^ {3}/gm, "");
};

const dir = mkdtempSync(join(tmpdir(), "tala-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = generateIdentitySecret();
const run = (command: string, file: string) => execFileSync(command, [file], { env: { ...process.env, TALA_IDENTITY_SECRET: secret }, encoding: "utf8" }).trim();
const hasPython = (() => {
  try {
    execFileSync("python3", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

describe("README signing examples", () => {
  it("are the ones the dashboard shows", () => {
    expect(visitorIdentityUi.nodeExample).toBe(block("js").trim());
    expect(visitorIdentityUi.pythonExample).toBe(block("python").trim());
  });

  it("the Node example (node:crypto) makes a token the verifier accepts", async () => {
    const code = block("js");
    expect(code.trim().split("\n").length).toBeLessThanOrEqual(10);
    const file = join(dir, "sign.mjs");
    writeFileSync(file, `${code}\nconsole.log(talaUserToken({ id: 42, name: "Amina", email: "amina@example.com" }));\n`);
    const token = run(process.execPath, file);
    expect(await verifyVisitorToken(token, [await importIdentitySecret(secret)])).toEqual({
      ok: true,
      visitor: { id: "42", name: "Amina", email: "amina@example.com" },
    });
    expect((await verifyVisitorToken(token, [await importIdentitySecret(generateIdentitySecret())])).ok).toBe(false);
  });

  it.runIf(hasPython)("the Python example (hmac, hashlib, base64, json) makes a token the verifier accepts", async () => {
    const code = block("python");
    expect(code.trim().split("\n").length).toBeLessThanOrEqual(10);
    const file = join(dir, "sign.py");
    writeFileSync(file, `${code}\nprint(tala_user_token({"id": 7, "name": "Yusuf"}))\n`);
    const token = run("python3", file);
    expect(await verifyVisitorToken(token, [await importIdentitySecret(secret)])).toEqual({ ok: true, visitor: { id: "7", name: "Yusuf" } });
  });
});
