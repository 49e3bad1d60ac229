/**
 * Every contract value the core reads, in one place. The contract's modules are large objects the
 * bundler cannot shake property by property (knowledge, e-mail and dashboard texts would ride
 * along), so build.mjs replaces this module in widget-core.js with its evaluated values: the
 * contract stays the single source, and the core carries only what it uses.
 */
import { api, publicAssistantDefaults, realtime, upload, widget } from "../../../contract/constants";

export const C = {
  basePath: api.basePath,
  timeoutMs: api.timeoutMs,
  retryDelaysMs: api.retryDelaysMs as readonly number[],
  retryStatuses: api.retryStatuses as readonly number[],
  reconnectDelayMinMs: realtime.reconnectDelayMinMs,
  reconnectDelayMaxMs: realtime.reconnectDelayMaxMs,
  reconnectAttempts: realtime.reconnectAttempts,
  connectTimeoutMs: realtime.connectTimeoutMs,
  /** The spec's upload size limit (15 MB). */
  maxFileBytes: upload.maxFileBytes,
  keyHeader: widget.keyHeader,
  keyQuery: widget.keyQuery,
  maxMessageChars: widget.maxMessageChars,
  maxFiles: widget.maxFiles,
  maxFileNameChars: widget.maxFileNameChars,
  maxFileTextChars: widget.maxFileTextChars,
  maxReferrerChars: widget.maxReferrerChars,
  maxLocaleChars: widget.maxLocaleChars,
  defaultColor: publicAssistantDefaults.config.customization.primaryColor,
};
