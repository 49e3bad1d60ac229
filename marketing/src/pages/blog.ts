import { appMessages, publicRoutes } from "../../../contract";
import { esc, formatDate } from "../html";
import { readingMinutes } from "../markdown";
import { canonicalPathOf, type BlogPost } from "../posts";

const LANGUAGE_NAME = { en: "English", fr: "Français" } as const;

/** Words of the post template, per post language. */
const POST_WORDS = {
  en: {
    back: "Back to the blog",
    minutes: (n: number) => `${n} min read`,
    readIn: "Lire en français",
    ctaTitle: "Try Tala",
    ctaText: "Create a free account to chat with Tala and build a Public Assistant for your own website.",
    more: "More from the blog",
  },
  fr: {
    back: "Retour au blog",
    minutes: (n: number) => `${n} min de lecture`,
    readIn: "Read in English",
    ctaTitle: "Essayer Tala",
    ctaText: "Créez un compte gratuit pour discuter avec Tala et créer un assistant public pour votre propre site.",
    more: "À lire aussi",
  },
} as const;

/** A post in a list: title link, description, date and language. */
export function postCard(post: BlogPost, heading: "h2" | "h3"): string {
  const langAttr = post.lang === "en" ? "" : ` lang="${post.lang}"`;
  return `<li><article class="card post-card"${langAttr}>
<${heading}><a href="${canonicalPathOf(post.id)}">${esc(post.title)}</a></${heading}>
<p>${esc(post.description)}</p>
<p class="meta"><time datetime="${post.date}">${esc(formatDate(post.date, post.lang))}</time><span class="tag" lang="${post.lang}">${LANGUAGE_NAME[post.lang]}</span></p>
</article></li>`;
}

/** /blog: every post, newest first. */
export function blogIndexMain(posts: readonly BlogPost[]): string {
  return `<div class="wrap">
<header class="page-head"><h1>Blog</h1>
<p>Notes on AI assistants for businesses and their websites, how Tala works, and how to run it yourself. In English and in French.</p></header>
<ul class="posts" role="list">
${posts.map((p) => postCard(p, "h2")).join("\n")}
</ul>
</div>`;
}

/** One post: title, date, reading time, translation link, the rendered Markdown, a call to action, related posts. */
export function postMain(post: BlogPost, html: string, all: readonly BlogPost[]): string {
  const w = POST_WORDS[post.lang];
  const translation = post.translation !== undefined ? all.find((p) => p.id === post.translation) : undefined;
  const related = all.filter((p) => p.id !== post.id && p.id !== post.translation && p.lang === post.lang).slice(0, 2);
  const translationLink = translation
    ? `<a href="${canonicalPathOf(translation.id)}" hreflang="${translation.lang}" lang="${translation.lang}">${esc(w.readIn)}</a>`
    : "";
  return `<div class="wrap narrow">
<a class="back" href="${publicRoutes.blog}">← ${esc(w.back)}</a>
<article class="article">
<header>
<h1>${esc(post.title)}</h1>
<p class="lead">${esc(post.description)}</p>
<p class="meta"><time datetime="${post.date}">${esc(formatDate(post.date, post.lang))}</time><span aria-hidden="true">·</span><span>${esc(w.minutes(readingMinutes(post.markdown)))}</span>${translationLink ? `<span aria-hidden="true">·</span>${translationLink}` : ""}</p>
</header>
<div class="prose">
${html}
</div>
</article>
<section class="note" aria-labelledby="try-tala">
<h2 id="try-tala">${esc(w.ctaTitle)}</h2>
<p>${esc(w.ctaText)}</p>
<p><a class="btn" href="${publicRoutes.register}" lang="en">${esc(appMessages.getStarted)}</a></p>
</section>
${
  related.length
    ? `<section aria-labelledby="more-posts"><h2 id="more-posts">${esc(w.more)}</h2>
<ul class="posts" role="list">${related.map((p) => postCard(p, "h3")).join("\n")}</ul></section>`
    : ""
}
</div>`;
}

/** The page an unknown /blog/{id} answers with (status 404, set by the worker). */
export function notFoundMain(): string {
  return `<div class="wrap narrow page-head">
<h1>Post not found</h1>
<p>There is no blog post at this address. It may have been moved, or the link may be mistyped.</p>
<p><a class="btn" href="${publicRoutes.blog}">Back to the blog</a></p>
</div>`;
}

/** What the service worker shows when a page is neither reachable nor saved on this device. */
export function offlineMain(): string {
  return `<div class="wrap narrow page-head">
<h1>You are offline</h1>
<p>This page is not saved on this device, and the network cannot be reached right now. Check your connection and try again.</p>
<p class="actions" style="justify-content:flex-start"><button class="btn" type="button" data-reload>Try again</button>
<a class="btn secondary" href="/app">Open the app</a><a class="btn secondary" href="${publicRoutes.blog}">Saved blog posts</a></p>
</div>`;
}
