#!/usr/bin/env node
// Runs the TypeScript sources directly: tsx compiles each module on first load and caches it,
// so there is no build step between `npm install` and `npx decksmith`.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
