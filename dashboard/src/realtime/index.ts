export { createChatConnection, type ChatConnection, type ClientFrame, type ChatConnectionOptions, type OutgoingMessage, type SendResult } from "./connection";
export {
  classifyProbe,
  messageErrorToast,
  reconnectDelays,
  socketOptions,
  statusToast,
  type ConnectionStatus,
  type FailureReason,
  type StatusToast,
} from "./policy";
