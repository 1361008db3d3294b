import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { TEMPLATE_PATH } from "./pglite-template.ts";

const migrationsFolder = path.resolve("src/storage/migrations");

/** Rebuilt only when a migration is newer than the template, so repeated runs start at once. */
function templateIsFresh(): boolean {
  if (!fs.existsSync(TEMPLATE_PATH)) return false;
  const built = fs.statSync(TEMPLATE_PATH).mtimeMs;
  const files = fs.readdirSync(migrationsFolder, { recursive: true }) as string[];
  return files.every((f) => fs.statSync(path.join(migrationsFolder, f)).mtimeMs < built);
}

export default async function setup(): Promise<void> {
  if (templateIsFresh()) return;
  const client = await PGlite.create();
  await migrate(drizzle({ client }), { migrationsFolder });
  const dump = await client.dumpDataDir("none");
  await client.close();
  fs.mkdirSync(path.dirname(TEMPLATE_PATH), { recursive: true });
  // Write then rename, so a project reading it concurrently never sees half a file.
  const partial = `${TEMPLATE_PATH}.${process.pid}.tmp`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, TEMPLATE_PATH);
}
