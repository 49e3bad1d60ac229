import { unlessGone } from "../../assistant/gone";
import { eq } from "drizzle-orm";
import { generateApiKey, hashApiKey, maskApiKey } from "../../crypto/api-key";
import { publicAssistants, users } from "../../db/schema";
import { ingestFile } from "../../knowledge";
import type { ServiceContext } from "../context";
import { decryptApiKey, encryptApiKey } from "../public-assistants/api-key-encryption";
import { enqueueEmbeddings } from "../public-assistants/enqueue-embeddings";
import { knowledgeIndex } from "../public-assistants/knowledge-stores";
import { knowledgeFileKey } from "../public-assistants/storage";
import { callFacet, getAssistantHub } from "../../durable-objects/stubs";
import { defaultConfig, defaultIntegration } from "../public-assistants/to-public-assistant";

/**
 * The home page's live demo (local mode only): a demo owner, the public assistant "Tala Guide" and
 * one Markdown document about Tala, seeded on first use. Fixed ids and INSERT OR IGNORE make it
 * idempotent and safe under concurrent first calls: every caller reads back the one stored key.
 */
export const DEMO_USER = { id: "00000000-0000-4000-8000-00000000d001", email: "demo@tala.local" };
export const DEMO_ASSISTANT_ID = "00000000-0000-4000-8000-00000000d002";
export const DEMO_FILE = { id: "00000000-0000-4000-8000-00000000d003", name: "about-tala.md" };

const WELCOME = "Hi! I am Tala Guide. Ask me what Tala does, how to embed it on a website, which languages it speaks, or how it treats your data.";

export const DEMO_DOCUMENT = `# About Tala

Tala is an open-source AI chat assistant with history and projects. Site owners can also turn their own documents into a Public Assistant and embed it on their website with one snippet.

## What Tala does

Replies stream in word by word over a live connection. Chats are kept in History and can be grouped into projects. Visitors can try Tala as a guest, and register with e-mail or Google to keep their history.

## Embedding Tala on a website

Create a Public Assistant, upload your documents (PDF, Word, text or Markdown), then open Get Code and paste the snippet just before the closing body tag of your pages. Developers can install the npm package @tala/widget instead. The widget draws itself inside a shadow root, so your styles and its styles cannot leak into each other. Each assistant has a limit of messages per visitor session and a daily limit.

## Languages

Tala speaks the language of your question, as far as the configured model allows. Modern models handle English, French, Arabic and Spanish well; Moroccan Darija and Amazigh vary more from one model to another. A knowledge base can mix languages: a French price list and an English FAQ can sit in the same assistant.

## Privacy

Tala does not train models. Passwords are stored only as a salted, slow hash, API keys are stored encrypted, and each owner only ever sees their own chats and assistants. When you self-host Tala on your own Cloudflare account, your data stays in your account.

## Pricing

Tala is open source and free to host yourself: you pay only what Cloudflare and your AI model provider bill you.
`;

/** Seeds the demo on first call and answers its API key (the same key on every call). */
export async function seedDemoAssistant({ ctx }: { ctx: ServiceContext }): Promise<string> {
  const now = Date.now();
  await ctx.db
    .insert(users)
    .values({ id: DEMO_USER.id, email: DEMO_USER.email, firstName: "Demo", lastName: "Owner", emailVerifiedAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  // The address may belong to an account someone registered: the demo then hangs off it.
  const [owner] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USER.email)).limit(1);
  if (!owner) throw new Error("demo owner missing");

  const apiKey = generateApiKey();
  const config = defaultConfig();
  config.customization.headerText = "Tala Guide";
  config.customization.welcomeMessage = WELCOME;
  await ctx.db
    .insert(publicAssistants)
    .values({
      id: DEMO_ASSISTANT_ID,
      userId: owner.id,
      name: "Tala Guide",
      description: "The live demo on Tala's home page: answers questions about Tala from one document.",
      isActive: true,
      apiKeyHash: await hashApiKey(apiKey),
      apiKeyEncrypted: await encryptApiKey(ctx.env, DEMO_ASSISTANT_ID, apiKey),
      apiKeyMasked: maskApiKey(apiKey),
      config: JSON.stringify(config),
      integration: JSON.stringify(defaultIntegration()),
      instructions: "You are Tala Guide. Answer visitors' questions about Tala from the knowledge base, briefly.",
      allowedOrigins: "[]",
      showSources: true,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [assistant] = await ctx.db
    .select({ encrypted: publicAssistants.apiKeyEncrypted })
    .from(publicAssistants)
    .where(eq(publicAssistants.id, DEMO_ASSISTANT_ID))
    .limit(1);
  if (!assistant) throw new Error("demo assistant missing");

  await seedDocument(ctx, now);
  return decryptApiKey(ctx.env, DEMO_ASSISTANT_ID, assistant.encrypted);
}

/** The one knowledge file: the caller whose record wins ingests it; a failed earlier attempt is retried. */
async function seedDocument(ctx: ServiceContext, now: number) {
  const bytes = new TextEncoder().encode(DEMO_DOCUMENT);
  const r2Key = knowledgeFileKey(DEMO_ASSISTANT_ID, DEMO_FILE.id, DEMO_FILE.name);
  // The file record lives in the assistant's own object (its knowledge index).
  const hub = getAssistantHub(ctx.env, DEMO_ASSISTANT_ID);
  const index = knowledgeIndex(ctx.env, DEMO_ASSISTANT_ID);
  const added = unlessGone(
    await callFacet(hub.knowledge(), (k) => k.addFile({ id: DEMO_FILE.id, name: DEMO_FILE.name, size: bytes.byteLength, mimeType: "text/markdown", r2Key, uploadedAt: now })),
    false,
  );
  if (!added && (await index.file(DEMO_FILE.id))?.status !== "failed") return;
  await ctx.env.FILES.put(r2Key, bytes, { httpMetadata: { contentType: "text/markdown" }, customMetadata: { assistantId: DEMO_ASSISTANT_ID, fileId: DEMO_FILE.id } });
  const result = await ingestFile({ index, files: ctx.env.FILES, assistantId: DEMO_ASSISTANT_ID, fileId: DEMO_FILE.id, name: DEMO_FILE.name, bytes });
  // ingestFile marks the record failed itself, so the next call tries again.
  if (!result.ok) throw new Error(`demo document not ingested: ${result.error.message}`);
  await enqueueEmbeddings(ctx.env, DEMO_ASSISTANT_ID, [DEMO_FILE.id]);
}
