import type { TestProject } from "vitest/node";
import { startMockModel } from "../mock-model/server.mjs";
import { startTestSite } from "../test-site/server.mjs";
import { startWebhookReceiver } from "../webhook-receiver/server.mjs";

declare module "vitest" {
  interface ProvidedContext {
    /** Base URL (…/v1) of the scripted mock model the worker uses as LLM_BASE_URL. */
    mockModelUrl: string;
    /** Origin of the small website the crawler's tests read (tests/test-site). */
    testSiteUrl: string;
    /** Origin of the webhook receiver (tests/webhook-receiver): records deliveries, answers scripted steps. */
    webhookReceiverUrl: string;
  }
}

/** Starts the mock model in Node for the whole integration run; the worker reaches it over loopback. */
export default async function setup(project: TestProject) {
  const mock = await startMockModel();
  const site = await startTestSite();
  const receiver = await startWebhookReceiver();
  project.provide("mockModelUrl", mock.url);
  project.provide("testSiteUrl", site.url);
  project.provide("webhookReceiverUrl", receiver.url);
  return async () => {
    await mock.close();
    await site.close();
    await receiver.close();
  };
}
