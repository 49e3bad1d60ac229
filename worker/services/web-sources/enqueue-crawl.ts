import type { Env } from "../../env";
import type { CrawlQueueMessage } from "../../queues/messages";


/**
 * Queues crawl runs. False when the queue is missing or refused them (logged): the source stays
 * queued and the assistant's object hands it to a new run when it finds it stalled (its alarm).
 */
export async function enqueueCrawl(
  env: Pick<Env, "INGEST_QUEUE">,
  runs: readonly Omit<CrawlQueueMessage, "kind">[],
  delaySeconds = 0,
): Promise<boolean> {
  if (!runs.length) return true;
  if (!env.INGEST_QUEUE) {
    console.error(JSON.stringify({ event: "crawl-not-queued", error: "INGEST_QUEUE is not bound" }));
    return false;
  }
  try {
    await env.INGEST_QUEUE.sendBatch(runs.map((r) => ({ body: { kind: "crawl" as const, ...r }, ...(delaySeconds > 0 ? { delaySeconds } : {}) })));
    return true;
  } catch (error) {
    console.error(JSON.stringify({ event: "crawl-not-queued", runs, error: String(error) }));
    return false;
  }
}
