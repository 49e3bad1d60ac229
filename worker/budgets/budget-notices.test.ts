import { describe, expect, it } from "vitest";
import { budgetMessages, budgetUi } from "../../contract";
import { thresholdsDue } from "./budget-math";
import { budgetEmail } from "./budget-notices";

describe("a budget e-mail's figures", () => {
  it("at 80 % says how many of the budget were answered", () => {
    const mail = budgetEmail({ scope: "assistant", percent: 80, budget: 10, used: 8, action: "pause", name: "Riad" });
    expect(mail.subject).toBe(budgetMessages.emailSubject("Riad", 80));
    expect(mail.text.startsWith("Riad has answered 8 of its 10 messages this month (UTC).")).toBe(true);
  });

  it("at 100 % names the budget, even when the count that reached it is past it", () => {
    // A budget lowered below the month's use: the next message finds 11 counted against 10.
    const lowered = thresholdsDue(11, 10, [{ percent: 80, budget: 20 }]);
    expect(lowered.email).toBe(100);
    const mail = budgetEmail({ scope: "assistant", percent: 100, budget: 10, used: 11, action: "pause", name: "Riad" });
    expect(mail.text).toBe(`Riad has used its 10 messages this month (UTC). ${budgetUi.emailOutcome("assistant", "pause", true)}`);
    expect(mail.text).not.toMatch(/11/);
  });

  it("the all-assistants total that arrives several messages at once says the budget too", () => {
    const mail = budgetEmail({ scope: "owner", percent: 100, budget: 5, used: 7, action: "continue", name: "" });
    expect(mail.text).toBe(`${budgetUi.allAssistantsName} has used its 5 messages this month (UTC). ${budgetUi.emailOutcome("owner", "continue", true)}`);
    expect(budgetEmail({ scope: "assistant", percent: 100, budget: 1, used: 1, action: "pause", name: "A" }).text).toMatch(/^A has used its 1 message this month/);
  });
});
