/**
 * The contract values the lead chunk reads, evaluated at build time like src/core/contract.ts
 * (build.mjs inlineContract): kept apart from it because widget-core.js never reads them (an array
 * there, even unused, costs the core its inlined constants). One export per value; plain values
 * and arrays only (an object's keys would be shortened everywhere by the build).
 */
import { leadLimits } from "../../../contract/constants";

/** The kinds of field, in order: the chunk's lists of input types, autocomplete tokens and lengths follow it. */
export const fieldKinds = leadLimits.fieldKinds;
/** Each kind's longest value, in `fieldKinds` order. */
export const maxChars = leadLimits.fieldKinds.map((k) => leadLimits.maxValueChars[k]);
/** E-mail and phone checked as the server checks them. */
export const emailPattern = leadLimits.emailPattern;
export const phonePattern = leadLimits.phonePattern;
export const phoneMin = leadLimits.phoneDigits.min;
export const phoneMax = leadLimits.phoneDigits.max;
