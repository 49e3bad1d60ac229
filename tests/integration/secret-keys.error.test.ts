import { describe, expect, it } from "vitest";
import { assistantSecretKey, secretKeyMessages } from "../../contract";
import { call, errorOf, expectError, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { createSecretKey, listSecretKeys, revokeSecretKey, secretKeysPath } from "./secret-keys-helpers";

describe("POST …/secret-keys refusals", () => {
  it("needs a name of 1 to 80 characters, once trimmed", async () => {
    const { token } = await registerUser();
    const { _id } = await createAssistant(token, { name: "Names" });
    const max = assistantSecretKey.maxNameChars;
    const cases: [unknown, string][] = [
      [{}, secretKeyMessages.nameRequired],
      [{ name: "" }, secretKeyMessages.nameRequired],
      [{ name: "    " }, secretKeyMessages.nameRequired],
      [{ name: 42 }, secretKeyMessages.nameMustBeText],
      [{ name: "x".repeat(max + 1) }, secretKeyMessages.nameTooLong(max)],
    ];
    for (const [body, message] of cases) {
      const res = await call(secretKeysPath(_id), { token, json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(res);
      expect(error).toMatchObject({ error: message, code: "VALIDATION_ERROR", fields: { name: message } });
    }
    expect(await listSecretKeys(token, _id)).toEqual([]);
    // Exactly 80 characters (after trimming) is fine.
    expect((await createSecretKey(token, _id, ` ${"y".repeat(max)} `)).secretKey.name).toBe("y".repeat(max));
  });

  it("answers a POST with no body, or an empty one, as it answers `{}`: the name is required", async () => {
    const { token } = await registerUser();
    const { _id } = await createAssistant(token, { name: "No body" });
    for (const init of [{ method: "POST" }, { method: "POST", body: "", headers: { "content-type": "application/json" } }]) {
      const res = await call(secretKeysPath(_id), { token, ...init });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ error: secretKeyMessages.nameRequired, code: "VALIDATION_ERROR", fields: { name: secretKeyMessages.nameRequired } });
    }
    expect(await listSecretKeys(token, _id)).toEqual([]);
  });

  it("caps the keys in use per assistant, exactly, even when created at once; revoking frees a place", async () => {
    const { token } = await registerUser();
    const { _id } = await createAssistant(token, { name: "Cap" });
    const max = assistantSecretKey.maxPerAssistant;
    const results = await Promise.all(Array.from({ length: max + 3 }, (_, i) => call(secretKeysPath(_id), { token, json: { name: `k${i}` } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(max);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(3);
    await expectError(refused[0]!, 409, secretKeyMessages.tooManyKeys(max));
    const keys = await listSecretKeys(token, _id);
    expect(keys).toHaveLength(max);

    expect((await revokeSecretKey(token, _id, keys[0]!.id)).status).toBe(204);
    await createSecretKey(token, _id, "after revoking");
    await expectError(await call(secretKeysPath(_id), { token, json: { name: "one too many" } }), 409, secretKeyMessages.tooManyKeys(max));
  });
});

describe("DELETE …/secret-keys/:keyId refusals", () => {
  it("answers 404 for an unknown key and for a key already revoked", async () => {
    const { token } = await registerUser();
    const { _id } = await createAssistant(token, { name: "Revoke" });
    expect((await revokeSecretKey(token, _id, crypto.randomUUID())).status).toBe(404);
    const { secretKey } = await createSecretKey(token, _id);
    expect((await revokeSecretKey(token, _id, secretKey.id)).status).toBe(204);
    expect((await revokeSecretKey(token, _id, secretKey.id)).status).toBe(404);
  });
});
