// @vitest-environment happy-dom
/** The Settings tab's "Talk to a person" section against a mocked network (msw). */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { handoffLimits, handoffMessages, inboxUi, publicAssistantResponse } from "../../../../contract";
import { testAssistant } from "../../test/assistant-fixture";
import { checkHandoffValues, HandoffSettingsSection } from "./handoff-settings";

const S = inboxUi.settings;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const assistant = testAssistant({ _id: "pa1" });

describe("Talk to a person settings", () => {
  it("start from the stored defaults: the action off, auto-end 30 minutes, ask for an e-mail after 5", () => {
    render(<HandoffSettingsSection assistant={assistant} onSaved={vi.fn()} />);
    expect(screen.getByRole("switch", { name: S.visitorAction }).getAttribute("aria-checked")).toBe("false");
    expect((screen.getByLabelText(S.idleEnd) as unknown as HTMLSelectElement).value).toBe("30");
    expect((screen.getByLabelText(S.emailAfter) as HTMLInputElement).value).toBe("5");
    expect(screen.getByRole("switch", { name: S.emailOwner }).getAttribute("aria-checked")).toBe("true");
  });

  it("refuse what the contract refuses, naming the field and limit, without a request", () => {
    const long = "x".repeat(handoffLimits.maxBusinessHoursChars + 1);
    const checked = checkHandoffValues({ visitorAction: true, businessHours: long, replyTime: "", idleEndMinutes: 30, emailAfterMinutes: "0", emailOwner: true });
    expect(checked).toEqual({
      ok: false,
      errors: {
        businessHours: handoffMessages.businessHoursTooLong(handoffLimits.maxBusinessHoursChars),
        emailAfterMinutes: handoffMessages.emailAfterRange(handoffLimits.emailAfterMinutes.min, handoffLimits.emailAfterMinutes.max),
      },
    });
    render(<HandoffSettingsSection assistant={assistant} onSaved={vi.fn()} />);
    fireEvent.change(screen.getByLabelText(S.emailAfter), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: S.save }));
    expect(screen.getByText(handoffMessages.emailAfterRange(handoffLimits.emailAfterMinutes.min, handoffLimits.emailAfterMinutes.max))).toBeTruthy();
  });

  it("save config.handoff with the assistant's update call, and show the server's field errors under their fields", async () => {
    const bodies: unknown[] = [];
    let refuse = true;
    server.use(
      http.put("/api/public-assistants/pa1", async ({ request }) => {
        bodies.push(await request.json());
        if (refuse)
          return HttpResponse.json(
            { error: "Validation failed", code: "VALIDATION_ERROR", requestId: "r", fields: { "config.handoff.replyTime": handoffMessages.replyTimeTooLong(handoffLimits.maxReplyTimeChars) } },
            { status: 400 },
          );
        return HttpResponse.json(publicAssistantResponse.parse({ assistant: { ...assistant, config: { ...assistant.config, handoff: { ...assistant.config.handoff, visitorAction: true } } } }));
      }),
    );
    const onSaved = vi.fn();
    render(<HandoffSettingsSection assistant={assistant} onSaved={onSaved} />);
    fireEvent.click(screen.getByRole("switch", { name: S.visitorAction }));
    fireEvent.change(screen.getByLabelText(S.businessHours), { target: { value: "Mon–Fri 9–18" } });
    fireEvent.change(screen.getByLabelText(S.idleEnd), { target: { value: "0" } });
    fireEvent.click(screen.getByRole("button", { name: S.save }));
    await screen.findByText(handoffMessages.replyTimeTooLong(handoffLimits.maxReplyTimeChars));
    expect(onSaved).not.toHaveBeenCalled();
    refuse = false;
    fireEvent.click(screen.getByRole("button", { name: S.save }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodies[1]).toEqual({
      config: { handoff: { visitorAction: true, businessHours: "Mon–Fri 9–18", replyTime: "", idleEndMinutes: 0, emailAfterMinutes: 5, emailOwner: true } },
    });
  });
});
