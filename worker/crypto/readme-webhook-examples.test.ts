import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { webhookLimits as L } from "../../contract";
import { generateWebhookSecret, signWebhook } from "./webhook-signature";

/**
 * The root README's "Webhooks" verifiers (Node, and Python when python3 is installed), run as
 * they are printed, must accept what Tala's signer makes and refuse a changed body, another
 * secret, and a timestamp outside the tolerance.
 */
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const section = readme.slice(readme.indexOf("**Webhooks.**"));
const block = (lang: string) => {
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section);
  if (!match) throw new Error(`no ${lang} example in the README's Webhooks section`);
  return match[1]!;
};

const dir = mkdtempSync(join(tmpdir(), "tala-readme-webhooks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = generateWebhookSecret();
const body = JSON.stringify({ id: "evt_1", type: "lead.created", createdAt: 1, assistantId: "a", data: { fields: { name: "Amina «Ş» 😀" } } });
const bodyFile = join(dir, "body.json");
writeFileSync(bodyFile, body);
const run = (command: string, file: string, header: string) =>
  execFileSync(command, [file], { env: { ...process.env, TALA_WEBHOOK_SECRET: secret, BODY_FILE: bodyFile, SIGNATURE: header }, encoding: "utf8" }).trim();
const hasPython = (() => {
  try {
    execFileSync("python3", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

/** Headers the verifier must accept (the first) and refuse (the rest). */
async function cases() {
  const now = Date.now() / 1000;
  return {
    good: await signWebhook(secret, body, now),
    otherSecret: await signWebhook(generateWebhookSecret(), body, now),
    otherBody: await signWebhook(secret, `${body} `, now),
    tooOld: await signWebhook(secret, body, now - L.signatureToleranceSeconds - 60),
    garbage: "t=abc,v1=zz",
  };
}

describe("README webhook verifiers", () => {
  it("the Node example (node:crypto, timing-safe) accepts Tala's signature and refuses the others", async () => {
    const file = join(dir, "verify.mjs");
    writeFileSync(
      file,
      `${block("js")}\nimport { readFileSync } from "node:fs";\nconsole.log(verifyTalaWebhook(readFileSync(process.env.BODY_FILE, "utf8"), process.env.SIGNATURE));\n`,
    );
    const c = await cases();
    expect(run(process.execPath, file, c.good)).toBe("true");
    for (const header of [c.otherSecret, c.otherBody, c.tooOld, c.garbage]) expect(run(process.execPath, file, header)).toBe("false");
  });

  it.runIf(hasPython)("the Python example (hmac, hashlib) accepts Tala's signature and refuses the others", async () => {
    const file = join(dir, "verify.py");
    writeFileSync(file, `${block("python")}\nprint(str(verify_tala_webhook(open(os.environ["BODY_FILE"], "rb").read(), os.environ["SIGNATURE"])).lower())\n`);
    const c = await cases();
    expect(run("python3", file, c.good)).toBe("true");
    for (const header of [c.otherSecret, c.otherBody, c.tooOld, c.garbage]) expect(run("python3", file, header)).toBe("false");
  });
});
