import {
  acceptedExtensions,
  appMessages,
  appRoutes,
  ASSISTANT_NAME,
  publicAssistantLimits,
  publicRoutes,
  upload,
  widgetPositions,
  widgetSizes,
} from "../../../contract";
import type { BlogPost } from "../posts";
import { esc } from "../html";
import { icons } from "../icons";
import { postCard } from "./blog";

const card = (icon: string, title: string, text: string) =>
  `<li class="card"><span class="icon">${icon}</span><h3>${esc(title)}</h3><p>${text}</p></li>`;

/**
 * What the product looks like, drawn in HTML and CSS (no image to download, follows the theme):
 * a chat with a reply being written, and a site with its assistant's widget open. Decorative to
 * screen readers, which get the same in the text around it.
 */
function productShot(): string {
  return `<div class="shot" aria-hidden="true">
<div class="shot-app"><div class="shot-bar"><i></i><i></i><i></i><span>Tala</span></div>
<div class="shot-chat">
<p class="shot-q">Plan a day in Fes for a first visit, with lunch near the medina.</p>
<p class="shot-a"><b>${esc(ASSISTANT_NAME)}</b>Start early at Bab Bou Jeloud, walk down Talaa Kebira to the Al-Attarine madrasa, then the tanneries before noon. For lunch, a terrace near the Nejjarine square…<span class="shot-caret"></span></p>
<p class="shot-input">Ask anything</p>
</div></div>
<div class="shot-site"><div class="shot-page"><span></span><span></span><span></span><span></span></div>
<div class="shot-widget"><div class="shot-wh">Riad Assistant</div>
<p class="shot-wq">Do you have parking?</p>
<p class="shot-wa">Yes: free parking 200 m away, at Bab Ftouh. <em>Source: guest-guide.pdf</em></p></div>
<span class="shot-launcher"></span></div>
</div>`;
}

/** The home page's main content: what Tala does for chat users and for site owners, then a call to register. */
export function homeMain(latest: readonly BlogPost[]): string {
  const mb = upload.maxFileBytes / 1024 / 1024;
  const types = acceptedExtensions.map((e) => e.slice(1).toUpperCase()).join(", ");
  const { maxMessagesPerSession: perSession, dailyLimit } = publicAssistantLimits;
  return `<section class="hero"><div class="wrap">
<p class="eyebrow">Open source · Runs on Cloudflare</p>
<h1>An AI assistant for you, and one for your website</h1>
<p class="lead">Tala is a fast AI chat assistant with history and projects. Site owners can also turn their own documents into a <strong>Public Assistant</strong> and embed it on their website with one snippet.</p>
<div class="actions">
<a class="btn lg" href="${publicRoutes.register}">${esc(appMessages.getStarted)}</a>
<a class="btn lg secondary" href="${appRoutes.newChat}?guest=1">${esc(appMessages.tryAsGuest)}</a>
</div>
<p class="hero-more"><a href="#site-owners">See how Public Assistants work</a></p>
${productShot()}
</div></section>

<section class="section" aria-labelledby="chat-users"><div class="wrap">
<h2 id="chat-users">For everyone who chats</h2>
<p class="intro">Ask, draft, translate, summarise. Replies stream in as they are written, and your conversations stay organised.</p>
<ul class="grid" role="list">
${card(icons.bolt, "Realtime replies", "Answers appear word by word over a live connection, so you can read along and stop a reply you do not need.")}
${card(icons.history, "History and projects", "Come back to any chat from History, and group related chats into projects so the work stays together.")}
${card(icons.user, "Try it as a guest", "Start chatting without an account. Register with e-mail or sign in with Google when you want to keep your history.")}
${card(icons.download, "Install it like an app", "Add Tala to your home screen or desktop. Light, dark or system theme, and the app opens even when the network drops.")}
</ul>
</div></section>

<section class="section" aria-labelledby="site-owners"><div class="wrap">
<h2 id="site-owners">For site owners: Public Assistants</h2>
<p class="intro">Give your visitors an assistant that answers from <em>your</em> documents: opening hours, prices, policies, product sheets. You decide how much it may talk, and you can read every conversation.</p>
<ol class="steps">
<li><h3>Create the assistant</h3><p>Name it, describe it, and choose its colour, header and welcome message.</p></li>
<li><h3>Upload a knowledge base</h3><p>${esc(types)} files up to ${mb} MB each. Tala extracts the text and indexes it.</p></li>
<li><h3>Get the integration code</h3><p>Paste the snippet before the closing &lt;/body&gt; tag of your site, or install the npm package.</p></li>
<li><h3>Visitors chat</h3><p>The widget answers from your documents. You review sessions, with the page they came from, and export them.</p></li>
</ol>
<ul class="checks">
<li>${perSession.min} to ${perSession.max} messages per visitor session (default ${perSession.default})</li>
<li>A daily message limit from ${dailyLimit.min} to ${dailyLimit.max} (default ${dailyLimit.default}), counted exactly</li>
<li>${widgetPositions.length} corner positions and ${widgetSizes.length} sizes for the widget</li>
<li>API keys you can reveal, copy or regenerate at any time</li>
<li>Chat history per assistant, exportable as JSON</li>
<li>An OpenAI-compatible endpoint, so existing tools can talk to your assistant</li>
</ul>
</div></section>

<section class="section" aria-labelledby="try-it"><div class="wrap">
<h2 id="try-it">Try it live</h2>
<p class="intro">Chat with <strong>Tala Guide</strong>, a Public Assistant that answers from one short document about Tala. Ask what Tala does, how to embed it, which languages it speaks or how it treats your data. The widget loads only when you ask for it.</p>
<div class="actions start"><button type="button" class="btn lg" id="demo-start">Try the live demo</button></div>
<p id="demo-note" role="status" aria-live="polite"></p>
</div></section>

<section class="section" aria-labelledby="principles"><div class="wrap">
<h2 id="principles">Fast, small, safe</h2>
<ul class="grid" role="list">
${card(icons.bolt, "Fast", "One Cloudflare Worker serves the app, the API and the realtime connections close to your visitors. These pages are plain HTML with no framework to download.")}
${card(icons.feather, "Small", "The widget keeps its styles in a shadow root, so it cannot break your site’s design, and your site cannot break it.")}
${card(icons.shield, "Safe", "Passwords are hashed with a slow function, API keys are stored encrypted, replies are sanitised before display, and each owner only ever sees their own assistants.")}
</ul>
</div></section>

<section class="section" aria-labelledby="open-source"><div class="wrap">
<h2 id="open-source">Open source, and free to host yourself</h2>
<p class="intro">Tala is open source. Deploy it to your own Cloudflare account with Wrangler: your data then stays in your account, and you pay only what Cloudflare and your AI model provider bill you. It works with Workers AI or any OpenAI-compatible model, in English, French, Arabic and the other languages your model speaks. <a href="${publicRoutes.faq}#pricing">Read the FAQ</a>.</p>
</div></section>

${
  latest.length
    ? `<section class="section" aria-labelledby="from-the-blog"><div class="wrap">
<h2 id="from-the-blog">From the blog</h2>
<ul class="posts" role="list" style="margin-top:2rem">${latest.map((p) => postCard(p, "h3")).join("\n")}</ul>
<p><a href="${publicRoutes.blog}">All posts</a></p>
</div></section>`
    : ""
}

<div class="wrap"><section class="cta" aria-labelledby="cta-title">
<h2 id="cta-title">Your assistant is a minute away</h2>
<p>Create a free account to keep your chats and build your first Public Assistant.</p>
<div class="actions"><a class="btn lg" href="${publicRoutes.register}">${esc(appMessages.getStarted)}</a>
<a class="btn lg secondary" href="${publicRoutes.login}">${esc(appMessages.signIn)}</a></div>
</section></div>`;
}
