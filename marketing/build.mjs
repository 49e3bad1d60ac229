#!/usr/bin/env node
// Renders the marketing site (Markdown posts and pages, home, FAQ, manifest, sitemap) into
// dist/public. The logic is TypeScript in marketing/src/, importing contract/ directly; see README.md.
// Environment: SITE_URL (absolute origin for canonical and Open Graph URLs, default http://127.0.0.1:8787).
import { importTs } from "../scripts/run-ts.mjs";

const { buildMarketingSite } = await importTs("marketing/src/build.ts");
const summary = await buildMarketingSite({ root: process.cwd(), siteUrl: process.env.SITE_URL });
console.log(`marketing: ${summary.pages} pages, ${summary.posts} posts`);
