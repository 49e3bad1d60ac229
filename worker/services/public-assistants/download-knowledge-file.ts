import { knowledgeMessages } from "../../../contract";
import { AppError, notFound } from "../../http/errors";
import type { ServiceContext } from "../context";
import { findKnowledgeFile } from "./delete-knowledge-file";

/** The stored original of an owner's knowledge file, with the name and type to serve it under. */
export async function downloadKnowledgeFile({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; fileId: string };
}): Promise<{ name: string; mimeType: string; size: number; body: ReadableStream }> {
  const file = await findKnowledgeFile({ ctx, input });
  if (!file) throw notFound();
  const object = await ctx.env.FILES.get(file.r2Key);
  if (!object) throw new AppError("NOT_FOUND", knowledgeMessages.missing(file.name));
  // A text's name is its title: its original downloads as the Markdown it is stored as.
  const name = file.kind === "text" ? `${file.name}.md` : file.name;
  return { name, mimeType: file.mimeType, size: object.size, body: object.body };
}
