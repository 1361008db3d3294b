import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { type Database, openDatabase } from "../src/storage/db.ts";
import { loadTemplate } from "./pglite-template.ts";

// Which engine the API suite runs on is chosen per vitest project (see vitest.config.ts).
export const testEngine = (process.env.DECKSMITH_TEST_DB ?? "pglite") as "pglite" | "postgres";

/** True when this project targets PostgreSQL but no server could be started here. */
export const engineUnavailable = testEngine === "postgres" && !inject("postgresTemplateUrl");

/** A fresh, migrated database of the project's engine, private to the calling test file. */
export async function openTestDatabase(): Promise<Database> {
  if (testEngine === "pglite") return openDatabase({ kind: "pglite", loadDataDir: loadTemplate() });
  const templateUrl = inject("postgresTemplateUrl");
  if (!templateUrl) throw new Error("no PostgreSQL server for this run");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const template = new URL(templateUrl);
  const adminUrl = new URL(templateUrl);
  adminUrl.pathname = "/postgres";
  const admin = await openDatabase({ kind: "postgres", url: adminUrl.toString(), maxConnections: 1 });
  await admin.query(`create database ${name} template ${template.pathname.slice(1)}`);
  await admin.close();
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  // Not dropped after the file: the whole throwaway cluster is deleted when the run ends.
  return openDatabase({ kind: "postgres", url: url.toString() });
}
