import { describe, expect, it } from "vitest";
import { chatMessages, type ServerFrame } from "../../contract";
import { ModelError, type GenerateRequest, type ModelProvider } from "../models";
import { ActiveReplies } from "./active-replies";
import { MemoryChatStore } from "./memory-chat-store";
import { runTurn, TurnRefused, type SendMessage } from "./run-turn";

/** A provider that streams `tokens`, then fails with `error` if given; records its requests. */
function fakeProvider(script: { tokens?: string[]; error?: ModelError; title?: string; waitEachMs?: number } = {}) {
  const requests: GenerateRequest[] = [];
  const provider: ModelProvider = {
    name: "fake",
    defaultModel: "fake-default",
    listModels: async () => ["fake-default"],
    async *stream(req) {
      requests.push(req);
      for (const t of script.tokens ?? ["Hello", " there"]) {
        if (script.waitEachMs) await new Promise((r) => setTimeout(r, script.waitEachMs));
        if (req.signal?.aborted) throw new ModelError("aborted", "stopped");
        yield t;
      }
      if (script.error) throw script.error;
    },
    async complete(req) {
      requests.push(req);
      return script.title ?? '"A Friendly Greeting."';
    },
  };
  return { provider, requests };
}

const message = (over: Partial<SendMessage> = {}): SendMessage => ({ content: "hi there", files: [], clientMessageId: "c1", isGuest: false, ...over });

function setup(provider: ModelProvider | null) {
  const store = new MemoryChatStore();
  const frames: ServerFrame[] = [];
  const active = new ActiveReplies();
  return { store, frames, active, deps: { store, provider, active, broadcast: (f: ServerFrame) => frames.push(f) } };
}

describe("runTurn", () => {
  it("saves the question, streams the reply, saves it and names the chat", async () => {
    const { provider } = fakeProvider();
    const { store, frames, deps } = setup(provider);
    await runTurn(deps, message());
    expect(frames.map((f) => f.event)).toEqual(["new-message", "thinking", "message-delta", "message-delta", "new-message", "new-message"]);
    const saved = [...store.messages.values()];
    expect(saved.map((m) => [m.role, m.status, m.content.data])).toEqual([
      ["user", "complete", "hi there"],
      ["assistant", "complete", "Hello there"],
    ]);
    const chat = [...store.chats.values()][0]!;
    expect(chat.title).toBe("A Friendly Greeting");
    const last = frames.at(-1) as Extract<ServerFrame, { event: "new-message" }>;
    expect(last.data.chat?.title).toBe("A Friendly Greeting");
  });

  it("answers honestly in offline mode, without pretending to be a model", async () => {
    const { store, frames, deps } = setup(null);
    await runTurn(deps, message());
    const reply = [...store.messages.values()].find((m) => m.role === "assistant")!;
    expect(reply).toMatchObject({ status: "complete", content: { data: chatMessages.offlineReply } });
    expect(reply.content.data).toContain("LLM_BASE_URL");
    expect(frames.some((f) => f.event === "message-delta")).toBe(false);
    expect([...store.chats.values()][0]!.title).toBe("hi there");
  });

  it("keeps the partial reply with status error and says why when the model fails", async () => {
    for (const [kind, text] of [
      ["timeout", chatMessages.modelTimeout],
      ["broken-stream", chatMessages.modelInterrupted],
      ["http", chatMessages.modelUnavailable],
      ["network", chatMessages.modelUnavailable],
    ] as const) {
      const { provider } = fakeProvider({ tokens: ["Half"], error: new ModelError(kind, "detail") });
      const { store, frames, deps } = setup(provider);
      await runTurn(deps, message());
      const error = frames.find((f) => f.event === "message-error") as Extract<ServerFrame, { event: "message-error" }>;
      expect(error.data.error).toBe(text);
      expect(error.data.message).toMatchObject({ status: "error", content: { data: "Half" }, error: text });
      expect([...store.messages.values()].map((m) => m.status)).toEqual(["complete", "error"]);
    }
  });

  it("stop keeps what was written, with status stopped", async () => {
    const { provider } = fakeProvider({ tokens: ["a", "b", "c", "d", "e"], waitEachMs: 5 });
    const { store, frames, active, deps } = setup(provider);
    const turn = runTurn(deps, message());
    await new Promise((r) => setTimeout(r, 12));
    expect(active.stop([...store.chats.keys()][0]!)).toBe(true);
    await turn;
    const reply = [...store.messages.values()].find((m) => m.role === "assistant")!;
    expect(reply.status).toBe("stopped");
    expect(reply.content.data.length).toBeGreaterThan(0);
    expect(reply.content.data.length).toBeLessThan(5);
    expect(frames.at(-1)?.event).toBe("new-message");
  });

  it("uses the chat's model, else the user's setting, else the provider default", async () => {
    const { provider, requests } = fakeProvider();
    const { store, deps } = setup(provider);
    await runTurn(deps, message());
    expect(requests[0]!.model).toBeUndefined();
    store.model = "chosen";
    await runTurn(deps, message());
    expect(requests.at(-2)!.model).toBe("chosen");
    await runTurn(deps, message({ model: "per-chat" }));
    expect(requests.at(-2)!.model).toBe("per-chat");
  });

  it("sends the project's instructions as the system prompt", async () => {
    const { provider, requests } = fakeProvider();
    const { store, deps } = setup(provider);
    store.projects.set("p1", "Answer in French.");
    await runTurn(deps, message({ projectId: "p1" }));
    expect(requests[0]!.messages[0]).toEqual({ role: "system", content: "Answer in French." });
    await expect(runTurn(deps, message({ projectId: "nope" }))).rejects.toThrow(chatMessages.projectNotFound);
  });

  it("refuses an unknown chat, a second reply in the same chat, and reports a failed save", async () => {
    const { provider, requests } = fakeProvider({ tokens: ["a", "b"], waitEachMs: 10 });
    const { store, frames, deps } = setup(provider);
    await expect(runTurn(deps, message({ chatId: "missing" }))).rejects.toBeInstanceOf(TurnRefused);
    const first = runTurn(deps, message());
    await new Promise((r) => setTimeout(r, 5));
    const chatId = [...store.chats.keys()][0]!;
    await expect(runTurn(deps, message({ chatId }))).rejects.toThrow(chatMessages.replyInProgress);
    await first;
    store.failStart = true;
    const before = frames.length;
    await expect(runTurn(deps, message({ chatId }))).rejects.toThrow(chatMessages.replyFailed);
    // Nothing of a reply whose question could not be saved is shown, and its request is aborted.
    expect(frames.length).toBe(before);
    expect(requests.at(-1)!.signal?.aborted).toBe(true);
    // A refused turn never leaves the chat reserved.
    expect(deps.active.all()).toEqual([]);
  });

  it("asks admit once the chat is reserved; a refusal saves nothing, calls no model and frees the chat", async () => {
    const { provider, requests } = fakeProvider();
    const { store, frames, active, deps } = setup(provider);
    let running = 0;
    const refused = runTurn({ ...deps, admit: () => ((running = active.all().length), "Not now.") }, message());
    await expect(refused).rejects.toEqual(new TurnRefused("Not now."));
    expect(running).toBe(1);
    expect(active.all()).toHaveLength(0);
    expect([store.chats.size, store.messages.size, requests.length, frames.length]).toEqual([0, 0, 0, 0]);
    await runTurn({ ...deps, admit: async () => null }, message());
    expect(store.messages.size).toBe(2);
  });

  it("falls back to the user's first words when the title call fails", async () => {
    const { provider } = fakeProvider({ title: "" });
    const { store, deps } = setup(provider);
    await runTurn(deps, message({ content: "How do **tides** work on the moon and elsewhere?" }));
    expect([...store.chats.values()][0]!.title).toBe("How do tides work on the");
  });
});
