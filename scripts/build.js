// Bundles src/ into dist/decksmith.mjs and dist/render-worker.mjs (dependencies stay external) so the CLI starts without
// compiling TypeScript at run time. Runs on `npm install` (prepare) and before `npm start`.
import fs from "node:fs";
import { build } from "esbuild";

const started = performance.now();
await build({
  // The render worker is its own entry: worker threads load it by path (see render-pool.ts).
  entryPoints: { decksmith: "src/main.ts", "render-worker": "src/rendering/render-worker.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
// db.ts finds its migrations beside itself, in src/ and in dist/ alike.
fs.cpSync("src/storage/migrations", "dist/migrations", { recursive: true });
console.log(`built dist/ in ${Math.round(performance.now() - started)} ms`);
