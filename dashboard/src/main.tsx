/** The dashboard's entry: silence the console, apply the theme, resolve the session, render. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { silenceConsole } from "./lib/silence-console";
import { authStore } from "./stores/auth";
import { startThemeSync } from "./stores/theme";
import "./styles.css";

silenceConsole();
startThemeSync();
void authStore.getState().init();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
