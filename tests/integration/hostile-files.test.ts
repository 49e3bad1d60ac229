import { beforeAll, describe, expect, it } from "vitest";
import { chatAttachmentField, chatAttachmentResponseSchema, chatAttachmentsPath, chatGuestSessionHeader } from "../../contract";
import { hostileCorpus, hostileIds, type HostileFile } from "../fixtures/hostile-files";
import { newGuestId } from "./chat-helpers";
import { call, errorOf, registerUser } from "./helpers";
import { assistantFootprint, createAssistant, uploadFiles } from "./public-assistants-helpers";

/**
 * Every hostile file of tests/fixtures/hostile-files.ts goes through both paths that
 * extract untrusted files, in workerd: a knowledge upload to a public assistant (sniff → extract →
 * chunk → D1) and a guest's chat attachment (POST /api/chat/attachments). Each answer is the one
 * the corpus expects (the contract message, or the file read), a refused upload leaves nothing
 * behind, and the server still answers afterwards.
 *
 * Zip bombs are built just past the inflated-bytes cap (210 MB for a 200 MB cap) and the files
 * that are read at a fifth of their size, to keep the run short; bench/hostile.mjs measures the
 * full-size ones (300 MB bombs, 10 MB paragraphs).
 */
const BOMB_BYTES = 210 * 1024 * 1024;
/** The files that are read (and so chunked into D1) at a fifth of the bench's size. */
const READ_SCALE = 0.2;
const refusalStatuses = [413, 415, 422];

let token = "";
let assistantId = "";
const built = new Map<string, HostileFile>();

async function file(id: string): Promise<HostileFile> {
  if (!built.has(id)) {
    const [made] = await hostileCorpus({ only: [id], bombBytes: BOMB_BYTES, readScale: READ_SCALE });
    built.set(id, made!);
  }
  return built.get(id)!;
}

const attach = (f: HostileFile) => {
  const body = new FormData();
  body.append(chatAttachmentField, new File([f.bytes.slice()], f.name));
  return call(chatAttachmentsPath, { method: "POST", body, headers: { [chatGuestSessionHeader]: newGuestId() } });
};

async function expectHealthy() {
  const health = await call("/api/health");
  expect(health.status).toBe(200);
}

describe("hostile files, knowledge upload and guest chat attachments", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    ({ token } = await registerUser());
    assistantId = (await createAssistant(token, { name: "Hostile corpus" }))._id;
  }, 30_000);

  for (const id of hostileIds()) {
    it(id, async () => {
      const f = await file(id);
      const expected = f.expect;

      // 1. Knowledge upload: the answer, and nothing left behind when refused.
      const before = await assistantFootprint(assistantId);
      const uploaded = await uploadFiles(token, assistantId, [{ name: f.name, bytes: f.bytes.slice() }]);
      if ("accepted" in expected) {
        expect(uploaded.status, await uploaded.clone().text()).toBeLessThan(300);
      } else {
        expect(refusalStatuses).toContain(uploaded.status);
        const error = (await errorOf(uploaded)).error;
        if ("refused" in expected) expect(error).toBe(expected.refused);
        else expect(error).toContain(f.name);
        const after = await assistantFootprint(assistantId);
        expect({ files: after.files, chunks: after.chunks, objects: after.objects }).toEqual({ files: before.files, chunks: before.chunks, objects: before.objects });
      }
      await expectHealthy();

      // 2. The same file as a guest's chat attachment.
      const attached = await attach(f);
      if ("accepted" in expected) {
        expect(attached.status, await attached.clone().text()).toBe(200);
        chatAttachmentResponseSchema.parse(await attached.json());
      } else {
        expect(refusalStatuses).toContain(attached.status);
        const error = (await errorOf(attached)).error;
        if ("refused" in expected) expect(error).toBe(expected.refused);
        else expect(error).toContain(f.name);
      }
      await expectHealthy();
      built.delete(id);
    });
  }
});
