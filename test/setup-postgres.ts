import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/storage/db.ts";
import { startCluster } from "./postgres-cluster.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresTemplateUrl: string | null;
  }
}

export const TEMPLATE_DB = "decksmith_template";

export default async function setup(project: TestProject) {
  const cluster = await startCluster();
  if ("skipped" in cluster) {
    console.warn(`[api-postgres] skipped: ${cluster.skipped}`);
    project.provide("postgresTemplateUrl", null);
    return;
  }
  const admin = await openDatabase({ kind: "postgres", url: cluster.url("postgres"), maxConnections: 1 });
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.close();
  const template = await openDatabase({ kind: "postgres", url: cluster.url(TEMPLATE_DB), maxConnections: 1 });
  await template.migrate();
  await template.close();
  project.provide("postgresTemplateUrl", cluster.url(TEMPLATE_DB));
  return () => cluster.stop();
}
