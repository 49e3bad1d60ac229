/**
 * Every contract value the core reads, in one place. The contract's modules are large objects the
 * bundler cannot shake property by property (knowledge, e-mail and dashboard texts would ride
 * along), so build.mjs replaces this module in widget-core.js with its evaluated values: the
 * contract stays the single source, and the core carries only what it uses. One export per value
 * (read as `C.name` through `import * as C`): the minifier then writes the numbers and short
 * strings where they are used instead of reading an object's properties.
 */
import { api, handoffLimits, publicAssistantDefaults, realtime, upload, visitorIdentity, widget } from "../../../contract/constants";

export const basePath = api.basePath;
export const timeoutMs = api.timeoutMs;
export const retryDelaysMs = api.retryDelaysMs as readonly number[];
export const retryStatuses = api.retryStatuses as readonly number[];
export const reconnectDelayMinMs = realtime.reconnectDelayMinMs;
export const reconnectDelayMaxMs = realtime.reconnectDelayMaxMs;
export const reconnectAttempts = realtime.reconnectAttempts;
export const connectTimeoutMs = realtime.connectTimeoutMs;
/** The spec's upload size limit (15 MB). */
export const maxFileBytes = upload.maxFileBytes;
export const keyHeader = widget.keyHeader;
export const keyQuery = widget.keyQuery;
export const maxMessageChars = widget.maxMessageChars;
export const maxFiles = widget.maxFiles;
export const maxFileNameChars = widget.maxFileNameChars;
export const maxFileTextChars = widget.maxFileTextChars;
export const maxReferrerChars = widget.maxReferrerChars;
export const maxLocaleChars = widget.maxLocaleChars;
export const defaultColor = publicAssistantDefaults.config.customization.primaryColor;
/** The verified visitor's token on HTTP calls (header) and on the socket (query). */
export const tokenHeader = visitorIdentity.tokenHeader;
export const tokenQuery = visitorIdentity.socketQuery;
/** A person taking over (the handoff chunk): how long their typing shows, how often the visitor's is sent, the e-mail left. */
export const typingTtlMs = handoffLimits.typingTtlMs;
export const typingSendMs = handoffLimits.typingSendMs;
export const maxEmailChars = handoffLimits.maxEmailChars;
export const emailPattern = handoffLimits.emailPattern;
