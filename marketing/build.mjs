#!/usr/bin/env node
// Renders the marketing site into dist/public.
import { mkdirSync, writeFileSync } from "node:fs";
mkdirSync("dist/public", { recursive: true });
writeFileSync("dist/public/index.html", "<!doctype html><title>Tala</title><h1>Tala</h1>");
