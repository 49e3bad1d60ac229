/** The installable app: service worker registration with the update prompt, and the Install button. See README.md. */
export { registerServiceWorker, type ServiceWorkerEnv } from "./register-service-worker";
export {
  captureInstallPrompt,
  createInstallPromptStore,
  useInstallPrompt,
  type BeforeInstallPromptEvent,
  type InstallOutcome,
  type InstallPromptState,
  type InstallPromptStore,
} from "./install-prompt";
export { InstallButton } from "./install-button";
