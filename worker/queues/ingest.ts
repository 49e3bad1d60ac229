import { z } from "zod";
import { dbOf } from "../db/client";
import type { Env } from "../env";
import { embedKnowledgeFile } from "../services/public-assistants/embed-knowledge-file";
import { CrawlBusy, crawlSource } from "../services/web-sources/crawl-source";

const ingestMessage = z.object({ assistantId: z.string().min(1).max(100), fileId: z.string().min(1).max(100) });
const crawlMessage = z.object({
  kind: z.literal("crawl"),
  assistantId: z.string().min(1).max(100),
  sourceId: z.string().min(1).max(100),
  syncId: z.string().min(1).max(100),
  /** Sent by earlier versions; the sync's mode is kept by the source now. */
  followLinks: z.boolean().optional(),
});

/** Seconds before a failed embedding is tried again: 30 s, 60 s, 90 s… (the consumer's max_retries bounds it). */
const retryDelay = (attempts: number) => Math.min(30 * attempts, 600);

/** Whether the assistant is still in the directory; true when D1 cannot say (the message is retried then). */
async function assistantExists(db: D1Database, assistantId: string): Promise<boolean> {
  try {
    return (await db.prepare("SELECT 1 FROM public_assistants WHERE id = ?1").bind(assistantId).first()) !== null;
  } catch {
    return true;
  }
}

/**
 * The `tala-ingest` queue consumer: embeds knowledge files uploaded through the API (see
 * services/public-assistants/enqueue-embeddings.ts), and runs website sources' crawls
 * (services/web-sources/crawl-source.ts: one run a message, each run queues the next). A
 * malformed message, a deleted file or
 * assistant, or a missing embedder is acknowledged and dropped; an embedding failure is retried with backoff,
 * and after the last retry the file simply stays lexical-only.
 */
export async function handleIngestBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const ctx = { env, db: dbOf(env.DB) };
  // Crawl runs (each bounded, each a different source) go side by side; embeddings one by one.
  const crawls: Promise<void>[] = [];
  for (const message of batch.messages) {
    const crawl = crawlMessage.safeParse(message.body);
    if (crawl.success) {
      crawls.push(runCrawl(message, crawl.data, env, batch.queue));
      continue;
    }
    const parsed = ingestMessage.safeParse(message.body);
    if (!parsed.success) {
      console.error(JSON.stringify({ queue: batch.queue, messageId: message.id, error: "malformed ingest message dropped" }));
      message.ack();
      continue;
    }
    try {
      const embedded = await embedKnowledgeFile({ ctx, input: parsed.data });
      console.log(JSON.stringify({ queue: batch.queue, ...parsed.data, embedded }));
      message.ack();
    } catch (error) {
      // A deleted assistant's file will never be embedded: drop its message rather than retry it.
      if (!(await assistantExists(env.DB, parsed.data.assistantId))) {
        console.log(JSON.stringify({ queue: batch.queue, ...parsed.data, dropped: "assistant deleted" }));
        message.ack();
        continue;
      }
      console.error(JSON.stringify({ queue: batch.queue, ...parsed.data, attempts: message.attempts, error: String(error) }));
      message.retry({ delaySeconds: retryDelay(message.attempts) });
    }
  }
  await Promise.all(crawls);
}

/** One crawl run; a failure (the assistant's object or the queue did not answer) is retried with backoff, a deleted assistant's run dropped. */
async function runCrawl(message: Message<unknown>, run: z.infer<typeof crawlMessage>, env: Env, queue: string) {
  try {
    const outcome = await crawlSource(env, run);
    console.log(JSON.stringify({ queue, crawl: run.sourceId, sync: run.syncId, outcome }));
    message.ack();
  } catch (error) {
    if (error instanceof CrawlBusy) {
      message.retry({ delaySeconds: 60 });
      return;
    }
    if (!(await assistantExists(env.DB, run.assistantId))) {
      message.ack();
      return;
    }
    console.error(JSON.stringify({ queue, crawl: run.sourceId, attempts: message.attempts, error: String(error) }));
    message.retry({ delaySeconds: retryDelay(message.attempts) });
  }
}
