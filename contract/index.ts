/** Tala's contract: every message, limit and schema both ends parse with. Imports nothing else. */
export * from "./constants";
export * from "./messages";
export * from "./errors";
export * from "./validation";
export * from "./schemas/auth";
export * from "./routes";
export * from "./schemas/chat";
export * from "./schemas/realtime";
export * from "./schemas/public-assistants";
export * from "./schemas/widget";
export * from "./schemas/openai-compat";
export * from "./schemas/secret-keys";
export * from "./schemas/web-sources";
export * from "./schemas/insights";
export * from "./schemas/playground";
export * from "./schemas/visitors";
export * from "./widget-strings";
