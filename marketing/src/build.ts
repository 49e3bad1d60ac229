import { build, transform } from "esbuild";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { fixedBlogPosts, publicRoutes, serviceWorker, staticPages, storageKeys, theme, PRODUCT_NAME } from "../../contract";
import { parseFrontMatter } from "./front-matter";
import { renderPage, type SiteContext } from "./layout";
import { manifest } from "./manifest";
import { fillPlaceholders, renderMarkdown } from "./markdown";
import { blogIndexMain, notFoundMain, offlineMain, postMain } from "./pages/blog";
import { documentMain, type DocumentPage } from "./pages/document";
import { homeMain } from "./pages/home";
import { policyValues } from "./policy-values";
import { canonicalPathOf, fixedPathOf, htmlFileOf, parsePost, pathsOf, sortPosts, type BlogPost } from "./posts";
import { buildRobots, buildSitemap, type SitemapEntry } from "./sitemap";

export const DEFAULT_SITE_URL = "http://127.0.0.1:8787";

export interface BuildOptions {
  /** Repository root: content is read from marketing/, pages are written to dist/public. */
  root: string;
  /** Absolute origin for canonical and Open Graph URLs (PUBLIC_URL: scripts/public-url.mjs), default http://127.0.0.1:8787. */
  siteUrl?: string | undefined;
  outDir?: string;
}

const documentSchema = z
  .object({
    title: z.string().min(1),
    description: z.string().min(50).max(200),
    updated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  })
  .strict();

/** Builds every marketing page, the manifest, sitemap.xml and robots.txt. Deterministic for the same input. */
export async function buildMarketingSite(options: BuildOptions): Promise<{ pages: number; posts: number }> {
  const { root } = options;
  const siteUrl = new URL(options.siteUrl || DEFAULT_SITE_URL).href.replace(/\/$/, "");
  const outDir = options.outDir ?? join(root, "dist/public");
  const src = join(root, "marketing");

  const site: SiteContext = {
    siteUrl,
    css: (await transform(readFileSync(join(src, "src/styles.css"), "utf8"), { loader: "css", minify: true })).code.trim(),
    headScript: await inlineScript(join(src, "src/inline/theme-head.ts")),
    pageScript: await inlineScript(join(src, "src/inline/page.ts")),
    year: Number(process.env.TALA_BUILD_YEAR) || new Date().getUTCFullYear(),
  };

  const posts = loadPosts(join(src, "content/blog"));
  const documents = loadDocuments(join(src, "content/pages"));
  const written: string[] = [];
  const write = (path: string, html: string) => {
    const file = join(outDir, htmlFileOf(path));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
    written.push(path);
  };

  write(
    publicRoutes.home,
    renderPage(site, {
      canonicalPath: publicRoutes.home,
      title: `${PRODUCT_NAME}: AI assistants for you and your website`,
      description:
        "Tala is a fast, open-source AI chat assistant. Site owners turn their documents into an embeddable assistant for their website. Free to self-host on Cloudflare.",
      isHome: true,
      main: homeMain(posts.slice(0, 3)),
    }),
  );
  write(
    publicRoutes.blog,
    renderPage(site, {
      canonicalPath: publicRoutes.blog,
      title: "Blog",
      description: "Articles about AI assistants for businesses and websites, in English and French, from the team behind Tala.",
      main: blogIndexMain(posts),
    }),
  );
  for (const post of posts) {
    const html = renderMarkdown(post.markdown, `blog post ${post.id}`);
    const translation = posts.find((p) => p.id === post.translation);
    const page = renderPage(site, {
      canonicalPath: canonicalPathOf(post.id),
      title: post.title,
      description: post.description,
      lang: post.lang,
      ogType: "article",
      publishedTime: post.date,
      ...(translation
        ? { alternates: { [post.lang]: canonicalPathOf(post.id), [translation.lang]: canonicalPathOf(translation.id) } }
        : {}),
      main: postMain(post, html, posts),
    });
    for (const path of pathsOf(post.id)) write(path, page);
  }
  for (const doc of documents) {
    const markdown = fillPlaceholders(doc.markdown, policyValues, `${doc.name}.md`);
    write(
      `/${doc.name}`,
      renderPage(site, {
        canonicalPath: `/${doc.name}`,
        title: doc.title,
        description: doc.description,
        main: documentMain({ ...doc, markdown }, renderMarkdown(markdown, `${doc.name}.md`)),
      }),
    );
  }
  write(
    staticPages.notFound,
    renderPage(site, {
      canonicalPath: publicRoutes.blog,
      title: "Post not found",
      description: "There is no blog post at this address. Browse every Tala article on the blog.",
      noindex: true,
      main: notFoundMain(),
    }),
  );
  write(
    staticPages.offline,
    renderPage(site, {
      canonicalPath: publicRoutes.home,
      title: "You are offline",
      description: "This page is not saved on this device and the network cannot be reached.",
      noindex: true,
      main: offlineMain(),
    }),
  );

  // Source assets (icons) as they are, then the generated files.
  cpSync(join(src, "static"), outDir, { recursive: true });
  writeFileSync(join(outDir, serviceWorker.manifestPath.slice(1)), `${JSON.stringify(manifest(), null, 2)}\n`);
  const sitemap: SitemapEntry[] = [
    { path: publicRoutes.home },
    { path: publicRoutes.blog, ...(posts[0] ? { lastmod: posts[0].date } : {}) },
    ...posts.map((p) => ({ path: canonicalPathOf(p.id), lastmod: p.date })),
    ...documents.map((d) => ({ path: `/${d.name}`, lastmod: d.updated })),
  ];
  writeFileSync(join(outDir, "sitemap.xml"), buildSitemap(siteUrl, sitemap));
  writeFileSync(join(outDir, "robots.txt"), buildRobots(siteUrl, ["/app", "/api/", staticPages.notFound, staticPages.offline]));
  return { pages: written.length, posts: posts.length };
}

/** Bundles one inline script (with the contract constants it uses) into a minified IIFE. */
async function inlineScript(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    minify: true,
    target: "es2019",
    legalComments: "none",
    define: {
      __THEME_KEY__: JSON.stringify(theme.storageKey),
      __THEME_DEFAULT__: JSON.stringify(theme.defaultMain),
      __SW_PATH__: JSON.stringify(serviceWorker.path),
      __SW_SCOPE__: JSON.stringify(serviceWorker.scope),
      __TOKEN_KEY__: JSON.stringify(storageKeys.token),
      __FIREBASE_TOKEN_KEY__: JSON.stringify(storageKeys.firebaseToken),
      __LOGIN_PATH__: JSON.stringify(publicRoutes.login),
    },
  });
  // "</script" can never appear in our code, but an inline script must not contain it.
  return result.outputFiles[0]!.text.trim().replace(/<\/script/gi, "<\\/script");
}

function loadPosts(dir: string): BlogPost[] {
  const posts = sortPosts(
    readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .map((f) => parsePost(f, readFileSync(join(dir, f), "utf8"))),
  );
  for (const [path, id] of Object.entries(fixedBlogPosts)) {
    if (!posts.some((p) => p.id === id)) throw new Error(`blog: ${path} shows post ${id}, which does not exist`);
    if (fixedPathOf(id) !== path) throw new Error(`blog: post ${id} has two fixed paths`);
  }
  return posts;
}

function loadDocuments(dir: string): DocumentPage[] {
  const required = [publicRoutes.faq, publicRoutes.privacyPolicy, publicRoutes.terms].map((p) => p.slice(1));
  return required.map((name) => {
    const file = join(dir, `${name}.md`);
    if (!existsSync(file)) throw new Error(`marketing: ${file} is missing`);
    const { data, body } = parseFrontMatter(readFileSync(file, "utf8"));
    const parsed = documentSchema.safeParse(data);
    if (!parsed.success) throw new Error(`${name}.md: front matter ${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
    return { name, ...parsed.data, markdown: body };
  });
}
