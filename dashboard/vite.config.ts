import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

// The dashboard builds into the Worker's assets as app.html (served at /app and, through the
// Worker, at every dashboard path) plus hashed files under /assets.
export default defineConfig({
  root,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL("../dist/public", import.meta.url)),
    emptyOutDir: false,
    rollupOptions: { input: fileURLToPath(new URL("./app.html", import.meta.url)) },
  },
  server: { proxy: { "/api": "http://127.0.0.1:8787", "/parties": { target: "ws://127.0.0.1:8787", ws: true } } },
});
