import type { SecretKey } from "../../../contract";
import type { assistantSecretKeys } from "../../db/schema";

export type SecretKeyRow = typeof assistantSecretKeys.$inferSelect;

/** The listed form of a key: never its hash. */
export const toSecretKey = (row: Pick<SecretKeyRow, "id" | "name" | "masked" | "createdAt" | "lastUsedAt">): SecretKey => ({
  id: row.id,
  name: row.name,
  masked: row.masked,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});
