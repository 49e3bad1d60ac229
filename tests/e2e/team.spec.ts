/**
 * Teams and privacy, end to end against the real server: an owner invites an agent and a viewer
 * from the Team page; the agent registers from the e-mail's link in their own browser, verifies,
 * comes back to the invitation and accepts it; the viewer types the code by hand. The agent
 * answers in the Inbox and sees no Settings; the viewer sees History, Insights and Leads read-only
 * and no Create. The owner removes the agent, whose open dashboard falls back to their own
 * workspace within seconds; sets a retention and deletes a visitor's data; the audit log shows it
 * all. Screens at 1280×800 and 390×844, light and dark, with axe and no sideways scroll.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import {
  appRoutes,
  authResponse,
  inboxUi,
  outboxResponse,
  privacyUi,
  publicAssistantResponse,
  publicAssistantUi,
  successMessages,
  teamMessages,
  teamUi,
  widgetApiPaths,
  widgetSessionResponse,
} from "../../contract";
import { axeFindings, shot, sidewaysOverflow } from "./axe";
import { expect, latestCode, test, uniqueEmail } from "./fixtures";
import { createAssistantWithKey } from "./host-site";

const PASSWORD = "team password 1";
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
type Shot = Parameters<typeof shot>[1];

/** Light and dark at both sizes: no sideways scroll, no serious or critical axe finding, a screenshot each. */
async function looks(page: Page, testInfo: Shot, name: string) {
  for (const size of [desktop, phone]) {
    await page.setViewportSize(size);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      expect((await sidewaysOverflow(page)).overflow).toBe(0);
      expect(await axeFindings(page)).toEqual([]);
      await shot(page, testInfo, `${name}-${size.width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(desktop);
}

async function signedIn(browser: Browser, baseURL: string, token: string) {
  const context = await browser.newContext({ viewport: desktop, baseURL });
  const page = await context.newPage();
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  return { context, page };
}

/** The invitation e-mail sent to `email`: its link and code, from the dev outbox. */
async function invitationOf(request: APIRequestContext, email: string, workspace: string) {
  await expect
    .poll(async () => outboxResponse.parse(await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()).emails.length, { timeout: 10_000 })
    .toBeGreaterThan(0);
  const { emails } = outboxResponse.parse(await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json());
  const mail = emails.find((e) => e.subject === teamMessages.invitationEmailSubject(workspace));
  expect(mail?.code).toBeTruthy();
  const link = /https?:\/\/\S+\/app\/invite\?code=\S+/.exec(mail!.text)?.[0];
  expect(link).toBeTruthy();
  return { code: mail!.code!, path: new URL(link!).pathname + new URL(link!).search };
}

async function visitorAsksForPerson(request: APIRequestContext, key: Record<string, string>, content: string) {
  const id = widgetSessionResponse.parse(await (await request.post(widgetApiPaths.sessions, { headers: key, data: { referrer: "https://dunetours.example/", locale: "en" } })).json()).sessionId;
  const sent = await request.post(widgetApiPaths.messages(id), { headers: key, data: { content, clientMessageId: `v-${Math.random()}` } });
  expect(sent.status()).toBe(200);
  await sent.text();
  expect((await request.post(widgetApiPaths.handoff(id), { headers: key, data: {} })).status()).toBe(202);
  return id;
}

test.use({ bypassCSP: true });

test("an owner's team: invitations accepted, roles on screen, a removal felt at once, retention and a visitor's deletion, all in the audit log", async ({ browser, request, baseURL }, testInfo) => {
  test.setTimeout(300_000);
  // The owner and their assistant (with "Talk to a person"), and a visitor who asked for one.
  const ownerEmail = uniqueEmail("team-owner");
  const reg = await request.post("/api/auth/register", { data: { email: ownerEmail, password: PASSWORD, firstName: "Nadia", lastName: "Alaoui" } });
  expect(reg.status()).toBe(201);
  const { token: ownerToken } = authResponse.parse(await reg.json());
  const { id: assistantId, key } = await createAssistantWithKey(request, { authorization: `Token ${ownerToken}` }, {
    name: "Dune Tours",
    config: { handoff: { visitorAction: true, businessHours: "Mon–Fri 9–18", replyTime: "Within an hour" } },
  });
  const sessionId = await visitorAsksForPerson(request, { "x-assistant-key": key }, "Can I talk to a human about the Sahara trip?");
  const workspace = teamMessages.defaultWorkspaceName("Nadia");

  // The owner invites an agent and a viewer from the Team page.
  const owner = await signedIn(browser, baseURL!, ownerToken);
  const o = owner.page;
  await o.goto(appRoutes.team);
  await expect(o.getByRole("button", { name: teamUi.switcher.label(workspace, "Owner") })).toBeVisible();
  const agentEmail = uniqueEmail("team-agent");
  const viewerEmail = uniqueEmail("team-viewer");
  for (const [email, role] of [
    [agentEmail, "agent"],
    [viewerEmail, "viewer"],
  ] as const) {
    await o.getByRole("button", { name: teamUi.inviteDialog.open }).click();
    const dialog = o.getByRole("dialog", { name: teamUi.inviteDialog.title });
    await dialog.getByLabel(teamUi.inviteDialog.email).fill(email);
    await dialog.getByLabel(teamUi.inviteDialog.role).selectOption(role);
    await dialog.getByRole("button", { name: teamUi.inviteDialog.send }).click();
    await expect(dialog).toBeHidden();
    await expect(o.getByRole("list", { name: teamUi.invitations.listLabel })).toContainText(email);
  }
  await looks(o, testInfo, "team-owner");

  // The agent follows the e-mail's link in their own browser: sign up, verify, back to the invitation, accept.
  const agentInvite = await invitationOf(request, agentEmail, workspace);
  const agentContext = await browser.newContext({ viewport: desktop, baseURL });
  const a = await agentContext.newPage();
  await a.goto(agentInvite.path);
  await expect(a).toHaveURL(/\/login/);
  await a.getByRole("link", { name: "Create an account" }).click();
  await a.getByLabel("First name").fill("Amina");
  await a.getByLabel("Last name").fill("Benali");
  await a.getByLabel("Email").fill(agentEmail);
  await a.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await a.getByRole("button", { name: "Create account" }).click();
  await expect(a).toHaveURL(/\/verify-email/);
  await a.getByLabel("Verification code").fill(await latestCode(request, agentEmail));
  await a.getByRole("button", { name: "Verify email" }).click();
  await expect(a).toHaveURL(/\/app\/invite\?code=/);
  await expect(a.getByLabel(teamUi.invite.codeLabel)).toHaveValue(agentInvite.code);
  await looks(a, testInfo, "invite-agent");
  await a.getByRole("button", { name: teamUi.invite.accept }).click();
  await expect(a).toHaveURL(/\/app\/public-assistants$/);
  await expect(a.getByRole("button", { name: teamUi.switcher.label(workspace, "Agent") })).toBeVisible();
  await expect(a.getByRole("button", { name: publicAssistantUi.screen.createNew })).toHaveCount(0);

  // The agent answers in the Inbox, and has no Settings, Code or Webhooks.
  await a.goto(appRoutes.publicAssistant(assistantId));
  const agentTabs = a.getByRole("tablist", { name: publicAssistantUi.page.tabsLabel });
  await expect(agentTabs.getByRole("tab")).toHaveText([/^Knowledge/, /^Inbox/, /^History/, /^Leads/]);
  await a.goto(appRoutes.inboxConversation(assistantId, sessionId));
  await a.getByRole("button", { name: inboxUi.conversation.takeOver }).click();
  await a.getByLabel(inboxUi.composer.label).fill("Hello, I am Amina. Yes, the Sahara trip runs every week.");
  await a.getByRole("button", { name: inboxUi.composer.send }).click();
  await expect(a.getByRole("list", { name: inboxUi.conversation.messagesLabel })).toContainText("the Sahara trip runs every week");
  await looks(a, testInfo, "inbox-agent");

  // The viewer, registered and verified already, types the code by hand.
  const viewerInvite = await invitationOf(request, viewerEmail, workspace);
  const vReg = await request.post("/api/auth/register", { data: { email: viewerEmail, password: PASSWORD, firstName: "Omar", lastName: "Idrissi" } });
  const { token: viewerToken } = authResponse.parse(await vReg.json());
  expect((await request.post("/api/auth/verify-email/confirm", { data: { email: viewerEmail, code: await latestCode(request, viewerEmail) } })).ok()).toBe(true);
  const viewer = await signedIn(browser, baseURL!, viewerToken);
  const v = viewer.page;
  await v.goto(appRoutes.invite);
  await v.getByLabel(teamUi.invite.codeLabel).fill(viewerInvite.code.toLowerCase().replace(/(.{4})/g, "$1-"));
  await v.getByRole("button", { name: teamUi.invite.accept }).click();
  await expect(v.getByRole("button", { name: teamUi.switcher.label(workspace, "Viewer") })).toBeVisible();
  await expect(v.getByRole("list", { name: publicAssistantUi.screen.listLabel })).toContainText("Dune Tours");
  await expect(v.getByRole("button", { name: publicAssistantUi.screen.createNew })).toHaveCount(0);
  await v.goto(appRoutes.publicAssistant(assistantId));
  await expect(v.getByRole("tablist", { name: publicAssistantUi.page.tabsLabel }).getByRole("tab")).toHaveText([/^History/, /^Leads/, /^Insights/]);
  await v.goto(appRoutes.historyConversation(assistantId, sessionId));
  const conversation = v.getByRole("dialog");
  await expect(conversation).toContainText("Can I talk to a human about the Sahara trip?");
  await expect(conversation.getByRole("button", { name: privacyUi.conversation.deleteVisitor })).toHaveCount(0);
  await looks(v, testInfo, "history-viewer");

  // The owner removes the agent: the agent's open dashboard goes back to their own workspace.
  await a.goto(appRoutes.publicAssistants);
  await expect(a.getByRole("button", { name: teamUi.switcher.label(workspace, "Agent") })).toBeVisible();
  await o.reload();
  const members = o.getByRole("list", { name: teamUi.members.listLabel });
  await expect(members).toContainText(agentEmail);
  await o.getByRole("button", { name: teamUi.members.removeOf("Amina Benali") }).click();
  const started = Date.now();
  await o.getByRole("alertdialog", { name: teamUi.members.confirmRemove.title("Amina Benali") }).getByRole("button", { name: teamUi.members.confirmRemove.confirm }).click();
  await expect(members).not.toContainText(agentEmail);
  await expect(a.getByRole("button", { name: teamUi.switcher.label(teamMessages.defaultWorkspaceName("Amina"), "Owner") })).toBeVisible({ timeout: 5_000 });
  testInfo.annotations.push({ type: "removed member's dashboard back home", description: `${Date.now() - started} ms` });
  await expect(a.getByText(teamUi.switcher.removedNotice(workspace))).toBeVisible();

  // The owner keeps conversations 30 days, and deletes the visitor's data.
  await o.goto(appRoutes.publicAssistant(assistantId, "settings"));
  const retention = o.getByRole("group", { name: privacyUi.group.retentionLabel });
  await retention.getByLabel(privacyUi.group.retentionOption(30)).check();
  await expect(o.getByText(privacyUi.group.retentionExplain(30, false))).toBeVisible();
  await o.getByRole("button", { name: publicAssistantUi.form.save }).click();
  await expect(o.getByText(successMessages.assistantUpdated)).toBeVisible();
  const stored = publicAssistantResponse.parse(await (await request.get(`/api/public-assistants/${assistantId}`, { headers: { authorization: `Token ${ownerToken}` } })).json());
  expect(stored.assistant.config.retentionDays).toBe(30);
  await o.goto(appRoutes.historyConversation(assistantId, sessionId));
  const detail = o.getByRole("dialog");
  await detail.getByRole("button", { name: privacyUi.conversation.deleteVisitor }).click();
  const ask = o.getByRole("alertdialog", { name: privacyUi.conversation.confirmDeleteVisitor.title });
  await expect(ask).toContainText("1 conversation");
  await looks(o, testInfo, "delete-visitor-owner");
  await ask.getByRole("button", { name: privacyUi.conversation.confirmDeleteVisitor.confirm }).click();
  await expect(o.getByText(/Deleted 1 conversation/)).toBeVisible();
  await expect(o.getByRole("dialog")).toHaveCount(0);

  // The audit log says what happened, in words.
  await o.goto(`${appRoutes.team}?tab=audit`);
  const log = o.getByRole("list", { name: teamUi.audit.listLabel });
  await expect(log).toContainText(`removed ${agentEmail}`);
  await expect(log).toContainText(`invited ${viewerEmail} as Viewer`);
  await expect(log).toContainText("deleted the data of visitor");
  await looks(o, testInfo, "audit-owner");
  await expect(log).toContainText("keep conversations 30 days");

  await Promise.all([owner.context.close(), agentContext.close(), viewer.context.close()]);
});
