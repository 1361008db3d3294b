#!/usr/bin/env node
// Starts the CLI from the bundle in dist/ (built on `npm install` and `npm start`) when it is
// newer than every source file, and from the TypeScript sources through tsx otherwise, so an
// edited source is never shadowed by a stale bundle.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(root, "dist", "decksmith.mjs");

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(file) : fs.statSync(file).mtimeMs);
  }
  return newest;
}

const bundleIsFresh =
  fs.existsSync(bundle) && fs.statSync(bundle).mtimeMs >= newestSource(path.join(root, "src"));

if (bundleIsFresh) {
  await import(bundle);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/main.ts");
}
