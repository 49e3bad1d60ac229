/** The dashboard's entry: silence the console, apply the theme, resolve the session, render. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { z } from "zod";
import { appMessages, contractErrorMap } from "../../contract";
import { App } from "./app";
import { captureInstallPrompt, registerServiceWorker } from "./pwa";
import { silenceConsole } from "./lib/silence-console";
import { startAccountSync } from "./lib/account-sync";
import { authStore } from "./stores/auth";
import { startThemeSync } from "./stores/theme";
import "./styles.css";

silenceConsole();
// Forms check input with the contract's schemas before sending: the same field-and-limit
// sentences as the server's (contract/validation.ts), never zod's default texts.
z.config({ customError: contractErrorMap });
startThemeSync();
void authStore.getState().init();
startAccountSync();
captureInstallPrompt();
if (import.meta.env.PROD) {
  // Only the built app has /service-worker.js. A new version waits until the user agrees (spec section 4).
  void registerServiceWorker((apply) => {
    if (window.confirm(appMessages.updateAvailable)) apply();
  });
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
