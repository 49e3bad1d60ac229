/** A small website on loopback for the crawler's tests (see server.mjs for what it serves). */
export function startTestSite(): Promise<{ url: string; close(): Promise<void> }>;
