/**
 * An owner reviews visitors: History speaks the owner's language (no Debug button, a filter named
 * "Signed-in visitor", a conversation titled by its first question) and Insights' "most asked"
 * lists near-identical questions as one. Desktop and phone, light and dark, axe on each.
 */
import { apiKeyResponse, appRoutes, insightsUi, publicAssistantResponse, publicAssistantUi, visitorIdentityUi, widget, widgetApiPaths, widgetSessionResponse } from "../../contract";
import { axeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, test, uniqueEmail } from "./fixtures";

const asked = ["When is breakfast served?", "when is breakfast served", "When is breakfast servd?", "Breakfast served: when is?", "Whenn is breakfast served?", "Is there a hammam?"];

for (const size of [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
]) {
  test(`History and Insights read as an owner would (${size.name})`, async ({ page, request }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size.viewport);
    const reg = await request.post("/api/auth/register", {
      data: { email: uniqueEmail("review"), password: "owner password 1", firstName: "Idriss", lastName: "", phone: "", birthDate: "" },
    });
    const { token } = (await reg.json()) as { token: string };
    const auth = { authorization: `Token ${token}` };
    const { assistant } = publicAssistantResponse.parse(await (await request.post("/api/public-assistants", { headers: auth, data: { name: "Riad Breakfasts" } })).json());
    const { apiKey } = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers: auth })).json());
    const key = { [widget.keyHeader]: apiKey };
    for (const [i, content] of asked.entries()) {
      const session = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: key, data: { referrer: "", locale: "en" } })).json());
      const sent = await request.post(widgetApiPaths.messages(session.sessionId), { headers: key, data: { content, clientMessageId: `q${i}` } });
      expect(sent.status()).toBe(200);
      await sent.text();
    }
    await page.goto("/login");
    await page.evaluate((t) => localStorage.setItem("token", t), token);

    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Insights: five ways of asking about breakfast (case, punctuation, a typo, word order, a letter typed twice) are one question.
      await page.goto(appRoutes.publicAssistant(assistant._id, "insights"));
      const top = page.getByRole("region", { name: insightsUi.topQuestions });
      await expect(top.getByRole("listitem")).toHaveCount(2);
      await expect(top.getByRole("listitem").first()).toContainText(insightsUi.asked(5));
      await expect(top.getByRole("listitem").last()).toContainText("Is there a hammam?");
      expect((await sidewaysOverflow(page)).overflow).toBe(0);
      expect(await axeFindings(page)).toEqual([]);
      // The owner's words: conversations, never "sessions" (the bot defence's count included).
      await expect(page.getByRole("main").getByText(/\bsessions?\b/i)).toHaveCount(0);
      await shot(page, testInfo, `insights-${scheme}`);

      // History: Refresh and Export, no Debug; the filter names a signed-in visitor.
      await page.goto(appRoutes.publicAssistant(assistant._id, "history"));
      const list = page.getByRole("list", { name: publicAssistantUi.history.sessionsLabel });
      await expect(list.getByRole("listitem")).toHaveCount(asked.length);
      await expect(page.getByText(publicAssistantUi.history.sessionCount(asked.length))).toHaveText(`${asked.length} conversations`);
      await expect(page.getByRole("main").getByText(/\bsessions?\b/i)).toHaveCount(0);
      await expect(page.getByRole("button", { name: publicAssistantUi.history.export })).toBeVisible();
      await expect(page.getByRole("button", { name: /debug/i })).toHaveCount(0);
      await expect(page.getByText(/database/i)).toHaveCount(0);
      await expect(page.getByRole("searchbox", { name: visitorIdentityUi.filterLabel }).or(page.getByLabel(visitorIdentityUi.filterLabel, { exact: true }))).toBeVisible();
      await expect(page.getByText(visitorIdentityUi.filterHint)).toBeVisible();
      // A conversation is titled by what the visitor asked first.
      await list.getByRole("button").filter({ hasText: "Is there a hammam?" }).click();
      const detail = page.getByRole("dialog", { name: "Is there a hammam?" });
      await expect(detail).toBeVisible();
      await expect(detail.getByText(publicAssistantUi.session.conversationId)).toBeVisible();
      expect(await axeFindings(page)).toEqual([]);
      await shot(page, testInfo, `conversation-${scheme}`);
      await page.keyboard.press("Escape");
      await expect(detail).toBeHidden();
      expect((await sidewaysOverflow(page)).overflow).toBe(0);
      await shot(page, testInfo, `history-${scheme}`);
    }
  });
}
