#!/usr/bin/env node
// Renders the marketing site (Markdown posts and pages, home, FAQ, manifest, sitemap) into
// dist/public. The logic is TypeScript in marketing/src/, importing contract/ directly; see README.md.
// Environment: PUBLIC_URL (absolute origin for canonical and Open Graph URLs; scripts/public-url.mjs).
import { publicUrl } from "../scripts/public-url.mjs";
import { importTs } from "../scripts/run-ts.mjs";

const { buildMarketingSite } = await importTs("marketing/src/build.ts");
const summary = await buildMarketingSite({ root: process.cwd(), siteUrl: publicUrl() });
console.log(`marketing: ${summary.pages} pages, ${summary.posts} posts`);
