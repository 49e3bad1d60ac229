import { startTala } from "./server";

/** One Tala server for the whole E2E run; its URL reaches the test workers through the environment. */
export default async function globalSetup() {
  const server = await startTala();
  process.env.E2E_BASE_URL = server.baseURL;
  return async () => {
    await server.stop();
  };
}
