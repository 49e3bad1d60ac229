// @vitest-environment happy-dom
/**
 * The Webhooks tab against a mocked network (msw): create shows the secret once, rotate, a
 * disabled endpoint with its reason, turning it on, delete naming the URL, test → 202, the
 * deliveries (expand, resend), and a 5xx on each call.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { publicAssistantUi, webhookLimits, webhookMessages, webhooksUi, type Webhook, type WebhookDelivery } from "../../../../../contract";
import { toastStore } from "../../../stores/toast";
import { testAssistant } from "../../../test/assistant-fixture";
import { WebhooksPanel } from "./webhooks-panel";

const copied = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock("../../../lib/clipboard", async (actual) => ({
  ...(await actual<typeof import("../../../lib/clipboard")>()),
  copyText: async (text: string) => void copied.texts.push(text),
}));

const W = webhooksUi;
const base = "/api/public-assistants/pa1/webhooks";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.useRealTimers();
  copied.texts.length = 0;
  toasts.length = 0;
});
afterAll(() => server.close());

const assistant = testAssistant({ _id: "pa1" });
const serverError = () => HttpResponse.json({ error: "Internal server error", code: "INTERNAL_ERROR", requestId: "r" }, { status: 500 });
const SECRET = "whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

function hook(id: string, over: Partial<Webhook> = {}): Webhook {
  return { id, url: `https://crm.example/${id}`, description: "", events: ["lead.created"], enabled: true, secretHint: "whsec_ab12…", createdAt: 1, ...over };
}
function delivery(id: string, over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id,
    eventId: `evt_${id}`,
    type: "lead.created",
    createdAt: Date.UTC(2026, 10, 20, 9),
    status: "delivered",
    attempts: 1,
    responseStatus: 200,
    durationMs: 84,
    response: "ok",
    lastAttemptAt: Date.UTC(2026, 10, 20, 9),
    nextAttemptAt: null,
    ...over,
  };
}
const listOf = (webhooks: Webhook[]) => HttpResponse.json({ webhooks, events: webhookLimits.events });
async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
const card = (url: string) => screen.getByRole("listitem", { name: url });
/** Every toast shown in the test, in order (each dismisses itself after a while). */
const toasts: string[] = [];
toastStore.subscribe((s, prev) => {
  if (s.current && s.current !== prev.current) toasts.push(s.current.title ?? "");
});
const lastToast = () => toasts[toasts.length - 1];

describe("the Webhooks tab", () => {
  it("with no endpoint: says what one is; Add endpoint checks the form, creates it and shows its secret once", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.get(base, () => listOf([])),
      http.post(base, async ({ request }) => {
        const body = (await request.json()) as { url: string; events: string[]; description: string };
        bodies.push(body);
        if (body.url.startsWith("http://10.")) return HttpResponse.json({ error: webhookMessages.urlNotAllowed, code: "VALIDATION_ERROR", requestId: "r", fields: { url: webhookMessages.urlNotAllowed } }, { status: 400 });
        return HttpResponse.json({ webhook: hook("wh1", { url: body.url, events: body.events as Webhook["events"], description: body.description }), secret: SECRET }, { status: 201 });
      }),
    );
    render(<WebhooksPanel assistant={assistant} />);
    await screen.findByText(W.emptyTitle);
    fireEvent.click(screen.getByRole("button", { name: W.add }));
    const dialog = await screen.findByRole("dialog", { name: W.form.addTitle });
    // lead.created is chosen to start with; none chosen and no URL: the contract's messages, no request.
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "lead.created" }));
    fireEvent.click(within(dialog).getByRole("button", { name: W.form.create }));
    expect(within(dialog).getByText(webhookMessages.urlRequired)).toBeTruthy();
    expect(within(dialog).getByText(webhookMessages.eventsRequired)).toBeTruthy();
    expect(bodies).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText(W.form.url), { target: { value: "http://10.0.0.1/hook" } });
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "message.answered" }));
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "lead.created" }));
    fireEvent.click(within(dialog).getByRole("button", { name: W.form.create }));
    const url = within(dialog).getByLabelText(W.form.url);
    await waitFor(() => expect(url.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(url.getAttribute("aria-describedby")!.split(" ")[0]!)!.textContent).toBe(webhookMessages.urlNotAllowed);
    fireEvent.change(url, { target: { value: "https://crm.example/hooks" } });
    fireEvent.change(within(dialog).getByLabelText(W.form.description), { target: { value: "CRM" } });
    fireEvent.click(within(dialog).getByRole("button", { name: W.form.create }));
    const shown = await screen.findByRole("dialog", { name: W.secret.createdTitle });
    // The events go in the server's order, whatever order they were ticked in.
    expect(bodies[1]).toEqual({ url: "https://crm.example/hooks", description: "CRM", events: ["message.answered", "lead.created"] });
    expect((within(shown).getByLabelText(W.secret.label) as HTMLTextAreaElement).value).toBe(SECRET);
    expect(within(shown).getByText(W.secret.note)).toBeTruthy();
    fireEvent.click(within(shown).getByRole("button", { name: W.secret.copyLabel }));
    await waitFor(() => expect(copied.texts).toEqual([SECRET]));
    fireEvent.click(within(shown).getByRole("button", { name: W.secret.done }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // Gone for good: the row shows only the hint.
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
    expect(within(card("https://crm.example/hooks")).getByText(W.secretHint("whsec_ab12…"))).toBeTruthy();
  });

  it("rotate asks first naming the URL, then shows the new secret once", async () => {
    let rotations = 0;
    server.use(
      http.get(base, () => listOf([hook("wh1")])),
      http.post(`${base}/wh1/rotate-secret`, () => ((rotations += 1), HttpResponse.json({ secret: `${SECRET}2` }))),
    );
    render(<WebhooksPanel assistant={assistant} />);
    const row = await waitFor(() => card("https://crm.example/wh1"));
    fireEvent.click(within(row).getByRole("button", { name: W.rotate }));
    const confirm = await screen.findByRole("alertdialog", { name: W.rotateTitle });
    expect(confirm.textContent).toContain(W.rotateConfirm("https://crm.example/wh1"));
    expect(rotations).toBe(0);
    fireEvent.click(within(confirm).getByRole("button", { name: W.rotate }));
    const shown = await screen.findByRole("dialog", { name: W.secret.rotatedTitle });
    expect((within(shown).getByLabelText(W.secret.label) as HTMLTextAreaElement).value).toBe(`${SECRET}2`);
    expect(rotations).toBe(1);
  });

  it("shows a disabled endpoint with the server's reason, one failing since when, and turns it on again", async () => {
    const reason = webhookMessages.disabledReason(24);
    const patches: unknown[] = [];
    server.use(
      http.get(base, () =>
        listOf([
          hook("wh1", { enabled: false, disabledReason: reason, lastDelivery: { at: 5, ok: false, status: 503 } }),
          hook("wh2", { failingSince: Date.UTC(2026, 10, 20, 8), lastDelivery: { at: 6, ok: false, status: null } }),
        ]),
      ),
      http.patch(`${base}/wh1`, async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json({ webhook: hook("wh1") });
      }),
    );
    render(<WebhooksPanel assistant={assistant} />);
    const disabled = await waitFor(() => card("https://crm.example/wh1"));
    expect(within(disabled).getByText(W.state.disabled)).toBeTruthy();
    expect(within(disabled).getByText(reason)).toBeTruthy();
    expect(disabled.textContent).toContain("HTTP 503");
    const failing = card("https://crm.example/wh2");
    expect(failing.textContent).toContain("Failing since");
    expect(failing.textContent).toContain(W.noStatus);
    fireEvent.click(within(disabled).getByRole("button", { name: W.turnOn }));
    await waitFor(() => expect(within(card("https://crm.example/wh1")).getByText(W.state.on)).toBeTruthy());
    expect(patches).toEqual([{ enabled: true }]);
    expect(within(card("https://crm.example/wh1")).queryByText(reason)).toBeNull();
    expect(lastToast()).toBe(W.turnedOn);
  });

  it("edits URL, events and description with PATCH; deletes after a confirmation naming the URL", async () => {
    const patches: unknown[] = [];
    let deleted = 0;
    server.use(
      http.get(base, () => listOf([hook("wh1")])),
      http.patch(`${base}/wh1`, async ({ request }) => {
        const body = (await request.json()) as Partial<Webhook>;
        patches.push(body);
        return HttpResponse.json({ webhook: hook("wh1", body) });
      }),
      http.delete(`${base}/wh1`, () => ((deleted += 1), new HttpResponse(null, { status: 204 }))),
    );
    render(<WebhooksPanel assistant={assistant} />);
    fireEvent.click(within(await waitFor(() => card("https://crm.example/wh1"))).getByRole("button", { name: W.edit }));
    const dialog = await screen.findByRole("dialog", { name: W.form.editTitle });
    expect((within(dialog).getByLabelText(W.form.url) as HTMLInputElement).value).toBe("https://crm.example/wh1");
    fireEvent.change(within(dialog).getByLabelText(W.form.url), { target: { value: "https://crm.example/v2" } });
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "feedback.created" }));
    fireEvent.click(within(dialog).getByRole("button", { name: W.form.save }));
    const row = await waitFor(() => card("https://crm.example/v2"));
    expect(patches).toEqual([{ url: "https://crm.example/v2", description: "", events: ["lead.created", "feedback.created"] }]);
    expect(within(row).getByText("feedback.created")).toBeTruthy();
    fireEvent.click(within(row).getByRole("button", { name: W.delete }));
    const confirm = await screen.findByRole("alertdialog", { name: W.deleteTitle });
    expect(confirm.textContent).toContain(W.deleteConfirm("https://crm.example/v2"));
    fireEvent.click(within(confirm).getByRole("button", { name: W.delete }));
    await screen.findByText(W.emptyTitle);
    expect(deleted).toBe(1);
  });

  it("send test event → 202, the deliveries open and read again; a delivery expands to its response and error, and resends", async () => {
    let reads = 0;
    let listReads = 0;
    const resent: string[] = [];
    server.use(
      http.get(base, () => {
        listReads += 1;
        // Once the test event went out, the row's last delivery says so.
        return listOf([hook("wh1", listReads > 1 ? { lastDelivery: { at: Date.UTC(2026, 10, 20, 9), ok: true, status: 200 } } : {})]);
      }),
      http.post(`${base}/wh1/test`, () => HttpResponse.json({ delivery: delivery("d0", { type: "webhook.test", status: "pending", attempts: 0, responseStatus: null, durationMs: null, response: "", lastAttemptAt: null }) }, { status: 202 })),
      http.get(`${base}/wh1/deliveries`, () => {
        reads += 1;
        return HttpResponse.json({
          deliveries: [
            delivery("d2", { status: "retrying", attempts: 3, responseStatus: 500, durationMs: 1500, response: '{"error":"db down"}', error: "HTTP 500", nextAttemptAt: Date.UTC(2026, 10, 20, 10) }),
            delivery("d1"),
          ],
        });
      }),
      http.post(`${base}/wh1/deliveries/:id/resend`, ({ params }) => {
        resent.push(String(params.id));
        return HttpResponse.json({ delivery: delivery("d3") }, { status: 202 });
      }),
    );
    render(<WebhooksPanel assistant={assistant} />);
    const row = await waitFor(() => card("https://crm.example/wh1"));
    fireEvent.click(within(row).getByRole("button", { name: W.test }));
    expect(row.textContent).toContain(W.noDelivery);
    await waitFor(() => expect(lastToast()).toBe(W.testSent));
    await waitFor(() => expect(card("https://crm.example/wh1").textContent).toContain("HTTP 200"));
    expect(card("https://crm.example/wh1").textContent).not.toContain(W.noDelivery);
    await waitFor(() => expect(within(row).getByRole("button", { name: new RegExp(W.deliveries.show) }).getAttribute("aria-expanded")).toBe("true"));
    const deliveries = await within(row).findByRole("region", { name: W.deliveries.title });
    const items = await waitFor(() => {
      const found = within(deliveries).getAllByRole("listitem");
      expect(found).toHaveLength(2);
      return found;
    });
    expect(items[0]!.textContent).toContain(W.deliveries.statuses.retrying);
    expect(items[0]!.textContent).toContain("HTTP 500");
    expect(items[0]!.textContent).toContain("1.5 s");
    expect(items[0]!.textContent).toContain(W.deliveries.attempts(3));
    expect(items[1]!.textContent).toContain("84 ms");
    expect(within(items[0]!).queryByText('{"error":"db down"}')).toBeNull();
    fireEvent.click(within(items[0]!).getByRole("button", { name: /Details of lead.created/ }));
    expect(within(items[0]!).getByText('{"error":"db down"}')).toBeTruthy();
    expect(within(items[0]!).getByText("HTTP 500", { selector: "p" })).toBeTruthy();
    expect(items[0]!.textContent).toContain("evt_d2");
    const before = reads;
    fireEvent.click(within(items[0]!).getByRole("button", { name: W.deliveries.resend }));
    await waitFor(() => expect(resent).toEqual(["d2"]));
    await waitFor(() => expect(reads).toBe(before + 1));
    expect(lastToast()).toBe(W.deliveries.resent);
    // A resend that fails goes once and says why.
    server.use(http.post(`${base}/wh1/deliveries/:id/resend`, () => ((resent.push("failed"), serverError()))));
    const again = within(deliveries).getAllByRole("listitem")[1]!;
    fireEvent.click(within(again).getByRole("button", { name: W.deliveries.resend }));
    await waitFor(() => expect(lastToast()).toBe("Internal server error"));
    expect(resent).toEqual(["d2", "failed"]);
  });

  it("a 5xx on each call says so: the list (with Try again), create, test, rotate, delete, turn off, the deliveries", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let listFails = true;
    server.use(
      http.get(base, () => (listFails ? serverError() : listOf([hook("wh1")]))),
      http.post(base, serverError),
      http.post(`${base}/wh1/test`, serverError),
      http.post(`${base}/wh1/rotate-secret`, serverError),
      http.delete(`${base}/wh1`, serverError),
      http.patch(`${base}/wh1`, serverError),
      http.get(`${base}/wh1/deliveries`, serverError),
    );
    render(<WebhooksPanel assistant={assistant} />);
    await elapse(9_000);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Internal server error");
    listFails = false;
    fireEvent.click(within(alert).getByRole("button", { name: publicAssistantUi.screen.retry }));
    const row = await waitFor(() => card("https://crm.example/wh1"));

    // Writes that must not happen twice go once and say why they failed.
    fireEvent.click(within(row).getByRole("button", { name: W.test }));
    await waitFor(() => expect(lastToast()).toBe("Internal server error"));
    toasts.length = 0;
    fireEvent.click(within(row).getByRole("button", { name: W.rotate }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: W.rotate }));
    await waitFor(() => expect(lastToast()).toBe("Internal server error"));
    expect(screen.queryByRole("dialog", { name: W.secret.rotatedTitle })).toBeNull();
    toasts.length = 0;
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: W.cancel }));

    fireEvent.click(screen.getByRole("button", { name: W.add }));
    const dialog = await screen.findByRole("dialog", { name: W.form.addTitle });
    fireEvent.change(within(dialog).getByLabelText(W.form.url), { target: { value: "https://crm.example/new" } });
    fireEvent.click(within(dialog).getByRole("button", { name: W.form.create }));
    expect((await within(dialog).findByRole("alert")).textContent).toContain("Internal server error");
    fireEvent.click(within(dialog).getByRole("button", { name: W.cancel }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    // Retried by the client (idempotent), then shown.
    fireEvent.click(within(row).getByRole("button", { name: W.turnOff }));
    await elapse(9_000);
    await waitFor(() => expect(lastToast()).toBe("Internal server error"));
    expect(within(row).getByText(W.state.on)).toBeTruthy();
    toasts.length = 0;
    fireEvent.click(within(row).getByRole("button", { name: W.delete }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: W.delete }));
    await elapse(9_000);
    await waitFor(() => expect(lastToast()).toBe("Internal server error"));
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: W.cancel }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(card("https://crm.example/wh1")).toBeTruthy();

    fireEvent.click(within(row).getByRole("button", { name: new RegExp(W.deliveries.show) }));
    await elapse(9_000);
    const failed = await within(row).findByRole("alert");
    expect(failed.textContent).toContain("Internal server error");
    expect(within(failed).getByRole("button", { name: publicAssistantUi.screen.retry })).toBeTruthy();
  });
});
