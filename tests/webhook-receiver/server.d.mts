/** Starts the webhook receiver on a free loopback port (see server.mjs for what it serves). */
export function startWebhookReceiver(): Promise<{ url: string; close: () => Promise<void> }>;
