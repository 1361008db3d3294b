import fs from "node:fs";
import path from "node:path";

// A new PGlite data directory takes seconds to create; loading a dump of one takes a fraction.
// Global setup builds and migrates one database once per run; every test file loads a copy.

export const TEMPLATE_PATH = path.resolve(".test-data/pglite-template.tar");

export function loadTemplate(): Blob {
  if (!fs.existsSync(TEMPLATE_PATH)) {
    throw new Error(`${TEMPLATE_PATH} is missing: run the tests through vitest so global setup builds it`);
  }
  return new Blob([fs.readFileSync(TEMPLATE_PATH)]);
}
