/** What DELETE …/visitors/{visitorId} and GET …/visitors/{visitorId}/export answer (schemas/privacy.ts says who a visitor is). */
import { z } from "zod";
import { leadSchema } from "./leads";
import { visitorSessionSchema } from "./public-assistants";

export const visitorDeletion = z.object({
  deletedConversations: z.number().int(),
  deletedMessages: z.number().int(),
  deletedLeads: z.number().int(),
  deletedFiles: z.number().int(),
});
export type VisitorDeletion = z.infer<typeof visitorDeletion>;

export const visitorExport = z.object({
  exportedAt: z.number(),
  assistant: z.object({ id: z.string(), name: z.string() }),
  visitorId: z.string(),
  /** Every conversation of the visitor with all its messages (as History shows them). */
  conversations: z.array(visitorSessionSchema),
  leads: z.array(leadSchema),
});
export type VisitorExport = z.infer<typeof visitorExport>;
