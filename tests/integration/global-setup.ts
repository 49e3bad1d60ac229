import type { TestProject } from "vitest/node";
import { startMockModel } from "../mock-model/server.mjs";

declare module "vitest" {
  interface ProvidedContext {
    /** Base URL (…/v1) of the scripted mock model the worker uses as LLM_BASE_URL. */
    mockModelUrl: string;
  }
}

/** Starts the mock model in Node for the whole integration run; the worker reaches it over loopback. */
export default async function setup(project: TestProject) {
  const mock = await startMockModel();
  project.provide("mockModelUrl", mock.url);
  return async () => {
    await mock.close();
  };
}
