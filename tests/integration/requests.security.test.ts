import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  chatGuestSessionHeader,
  chatHistory,
  chatLimits,
  knowledgeMessages,
  projectLimits,
  publicAssistantServerMessages,
  requestBodyLimits,
  requestMessages,
  serverMessages,
  upload,
  validationMessages as m,
  widgetApiPaths,
} from "../../contract";
import { createApp } from "../../worker/app";
import type { Env } from "../../worker/env";
import { newGuestId } from "./chat-helpers";
import { call, errorOf, expectError, registerUser, uniqueEmail } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";

// Body caps, validation sentences, security headers on the Worker's own answers.

const kb = (bytes: number) => Math.floor(bytes / 1024);

describe("validation messages are sentences naming the field and the limit", () => {
  it("refuses a null body, and a JSON array, as not an object", async () => {
    const { token } = await registerUser();
    for (const body of ["null", "[]", "42"]) {
      const res = await call("/api/projects", { token, method: "POST", body, headers: { "content-type": "application/json" } });
      await expectError(res, 400, requestMessages.bodyNotObject);
    }
  });

  it("tells a 100 000-character project name the limit, not that it is missing", async () => {
    const { token } = await registerUser();
    const res = await call("/api/projects", { token, json: { name: "x".repeat(100_000) } });
    const body = await errorOf(res);
    expect(res.status).toBe(400);
    expect(body.error).toBe(m.atMost("Project name", projectLimits.maxNameChars, "characters"));
    expect(body.fields).toEqual({ name: body.error });
  });

  it("names over-long text fields and their limit", async () => {
    const { token } = await registerUser();
    const res = await call("/api/projects", { token, json: { name: "Docs", instructions: "y".repeat(projectLimits.maxInstructionsChars + 1) } });
    await expectError(res, 400, m.atMost("Instructions", projectLimits.maxInstructionsChars, "characters"));
    const long = await call("/api/auth/me", { token, method: "PATCH", json: { lastName: "z".repeat(101) } });
    await expectError(long, 400, m.atMost("Last name", 100, "characters"));
  });

  it("tells a page number past the maximum the maximum", async () => {
    const { token } = await registerUser();
    await expectError(await call("/api/chats?page=1000001", { token }), 400, m.numberAtMost("Page", 100_000));
    await expectError(await call(`/api/chats?limit=${chatLimits.listMaxPageSize + 1}`, { token }), 400, m.numberAtMost("Limit", chatLimits.listMaxPageSize));
    const assistant = await createAssistant(token);
    const history = await call(`/api/public-assistants/${assistant._id}/chats?page=${chatHistory.maxPage + 1}`, { token });
    await expectError(history, 400, publicAssistantServerMessages.pageTooHigh(chatHistory.maxPage));
  });

  it("never shows a zod default text", async () => {
    const { token } = await registerUser();
    const answers = [
      await call("/api/projects", { token, json: { name: 42 } }),
      await call("/api/projects", { token, json: { name: "ok", instructions: ["x"] } }),
      await call("/api/chats?page=abc", { token }),
      await call("/api/chats?page=1.5", { token }),
    ];
    for (const res of answers) {
      const body = await errorOf(res);
      expect(res.status).toBe(400);
      expect(body.error).toMatch(/^[A-Z].*\.$/);
      expect(body.error).not.toMatch(/expected|Invalid input|Too (big|small)|received/);
    }
  });
});

describe("request body caps", () => {
  it("refuses a body over the cap by its Content-Length, before reading it, with the envelope", async () => {
    const { token } = await registerUser();
    const body = JSON.stringify({ name: "Docs", instructions: "x".repeat(requestBodyLimits.defaultBytes) });
    const res = await call("/api/projects", { token, method: "POST", body, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    const error = await errorOf(res);
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.error).toBe(requestMessages.bodyTooLarge(kb(requestBodyLimits.defaultBytes)));
    expect(error.requestId).toBeTruthy();
  });

  it("counts a streamed body without Content-Length and refuses it past the cap", async () => {
    const { token } = await registerUser();
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > requestBodyLimits.defaultBytes * 4) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await call("/api/projects", { token, method: "POST", body: stream, headers: { "content-type": "application/json" } });
    await expectError(res, 413, requestMessages.bodyTooLarge(kb(requestBodyLimits.defaultBytes)));
    // The rest was read and dropped before the answer: the client's upload ends, its connection stays usable.
    expect(sent).toBeGreaterThan(requestBodyLimits.defaultBytes * 4);
  });

  it("cancels an endless streamed body once its cap and the drain bound are past", async () => {
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await call("/api/projects", { method: "POST", body: endless, headers: { "content-type": "application/json" } });
    await expectError(res, 413, requestMessages.bodyTooLarge(kb(requestBodyLimits.defaultBytes)));
    // Its reading stopped (worker/http/body-limit.test.ts checks the cancel itself).
    expect(sent).toBeLessThan(requestBodyLimits.defaultBytes + requestBodyLimits.drainBytes + 4 * chunk.length);
  });

  it("caps even a body sent as another content type (the route would read it anyway)", async () => {
    const { token } = await registerUser();
    const res = await call("/api/projects", { token, method: "POST", body: "x".repeat(requestBodyLimits.defaultBytes + 1), headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(413);
  });

  it("caps a JSON route sent as multipart/form-data (a type any page may send without a preflight)", async () => {
    const res = await call("/api/auth/login", {
      method: "POST",
      body: JSON.stringify({ email: `${"a".repeat(requestBodyLimits.defaultBytes)}@example.com`, password: "x" }),
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
    });
    await expectError(res, 413, requestMessages.bodyTooLarge(kb(requestBodyLimits.defaultBytes)));
    const widget = await call(widgetApiPaths.sessions, {
      method: "POST",
      body: JSON.stringify({ referrer: "x".repeat(requestBodyLimits.widgetBytes) }),
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
    });
    await expectError(widget, 413, requestMessages.bodyTooLarge(kb(requestBodyLimits.widgetBytes)));
  });

  it("counts a chunked upload without Content-Length and refuses it past the upload's cap", async () => {
    const chunk = new TextEncoder().encode("x".repeat(256 * 1024));
    let sent = 0;
    const limit = upload.maxFileBytes;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > limit * 2) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await call("/api/chat/attachments", {
      method: "POST",
      body: stream,
      headers: { "content-type": "multipart/form-data; boundary=zzz", [chatGuestSessionHeader]: newGuestId() },
    });
    await expectError(res, 413, knowledgeMessages.fileTooLarge("This file"));
    // Read to its end (within the drain bound) before the answer.
    expect(sent).toBeGreaterThan(limit * 2);
  });

  it("hands a chunked body within its cap to the route whole, as it was sent", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ email: uniqueEmail("chunked"), password: "correct horse battery", firstName: "Chunk" }));
    const parts = [body.slice(0, 7), body.slice(7, 30), body.slice(30)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const res = await call("/api/auth/register", { method: "POST", body: stream, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(201);
  });

  it("gives the widget's routes their own, larger cap", async () => {
    const under = "x".repeat(requestBodyLimits.defaultBytes + 1024);
    const within = await call(widgetApiPaths.sessions, { method: "POST", body: JSON.stringify({ referrer: under }), headers: { "content-type": "application/json" } });
    expect(within.status).not.toBe(413);
    const over = "x".repeat(requestBodyLimits.widgetBytes);
    await expectError(
      await call(widgetApiPaths.sessions, { method: "POST", body: JSON.stringify({ referrer: over }), headers: { "content-type": "application/json" } }),
      413,
      requestMessages.bodyTooLarge(kb(requestBodyLimits.widgetBytes)),
    );
  });
});

describe("security headers on the Worker's answers", () => {
  it("sends nosniff, a referrer policy and a no-framing CSP on API answers and errors", async () => {
    for (const res of [await call("/api/health"), await call("/api/chats"), await call("/api/nope")]) {
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("sends HSTS over https in production only", async () => {
    const fetchOver = (url: string, ENVIRONMENT: string) =>
      createApp().fetch(new Request(url), { ...env, ENVIRONMENT } as unknown as Env, createExecutionContext());
    expect((await fetchOver("https://tala.example/api/health", "production")).headers.get("strict-transport-security")).toMatch(/^max-age=31536000/);
    expect((await fetchOver("http://tala.example/api/health", "production")).headers.get("strict-transport-security")).toBeNull();
    expect((await fetchOver("https://tala.example/api/health", "local")).headers.get("strict-transport-security")).toBeNull();
  });
});

describe("a method a path does not have", () => {
  it("answers 405 with Allow and the envelope for a path that exists with other methods", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token);
    const res = await call(`/api/public-assistants/${assistant._id}`, { token, method: "PATCH", json: { name: "x" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, PUT, DELETE");
    const body = await errorOf(res);
    expect(body).toMatchObject({ code: "METHOD_NOT_ALLOWED", error: serverMessages.methodNotAllowed("PATCH", ["GET", "HEAD", "PUT", "DELETE"]) });
    expect(body.requestId).toBeTruthy();
    // The security headers every answer carries.
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("names every method of the path, OPTIONS where a preflight is answered", async () => {
    const cases: [string, string, string][] = [
      ["GET", "/api/v1/chat/completions", "POST, OPTIONS"],
      ["DELETE", "/api/v1/models", "GET, HEAD, OPTIONS"],
      ["POST", "/api/health", "GET, HEAD"],
      ["PUT", "/api/auth/login", "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await call(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
    }
  });

  it("keeps 404 for a path no method has", async () => {
    for (const [method, path] of [["GET", "/api/nope"], ["PATCH", "/api/nope/deeper"], ["POST", "/api/nothing-here/x"]] as const) {
      const res = await call(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get("allow")).toBeNull();
      expect((await errorOf(res)).code).toBe("NOT_FOUND");
    }
  });
});
