import { appRoutes, serviceWorker, PRODUCT_NAME } from "../../contract";

/** The web app manifest (/manifest.webmanifest): installable, opens the app standalone. */
export function manifest() {
  return {
    id: appRoutes.root,
    name: PRODUCT_NAME,
    short_name: PRODUCT_NAME,
    description: "AI chat assistant, with embeddable Public Assistants for your website.",
    start_url: appRoutes.root,
    scope: serviceWorker.scope,
    display: "standalone",
    background_color: "#ffffff",
    theme_color: serviceWorker.themeColor,
    categories: ["productivity", "business"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
