import { sha256Hex } from "../../crypto/hash";

/**
 * What is stored for a code: SHA-256 of `<row id>:<code>`. Binding the row id in means equal
 * codes hash differently per row, so one precomputed table of the 10^6 codes fits no other row.
 */
export const codeHash = (rowId: string, code: string) => sha256Hex(`${rowId}:${code}`);
