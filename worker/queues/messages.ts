/** The messages of the `tala-ingest` queue (consumed by queues/ingest.ts). */

/** Embed this knowledge file's chunks. */
export interface IngestQueueMessage {
  assistantId: string;
  fileId: string;
}

/** Run (or go on with) one sync of a website source. */
export interface CrawlQueueMessage {
  kind: "crawl";
  assistantId: string;
  sourceId: string;
  syncId: string;
}

/** The messages of the `tala-webhooks` queue (consumed by queues/webhooks.ts): one attempt of one delivery, asked of the assistant's object. */
export interface WebhookQueueMessage {
  assistantId: string;
  deliveryId: string;
}
