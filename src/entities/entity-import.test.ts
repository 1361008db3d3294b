import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/database.ts";
import { createTenant } from "../../test/factories.ts";
import { TEST_EMBEDDINGS_DIR } from "../../test/setup-embeddings.ts";
import type { Actor } from "../auth/actor.ts";
import { loadConfig } from "../config.ts";
import { type Container, createContainer } from "../container.ts";
import { importEntities } from "./entity-import.ts";

describe("entity import", () => {
  let c: Container;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-import-"));
    c = await createContainer(
      loadConfig({ DATA_DIR: dir, EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_DIR }),
      await openTestDatabase(),
    );
  });
  afterAll(async () => {
    await c.database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function freshActor(): Promise<Actor> {
    const t = await createTenant(c);
    return c.workspaces.resolveActor({ userId: t.user.id, via: "api_key" }, t.workspace.id);
  }
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const total = async (actor: Actor) => (await c.entities.list(actor, {})).total;

  it("imports CSV with fields, links and numbers, and re-imports idempotently", async () => {
    const actor = await freshActor();
    const file = write(
      "crm.csv",
      'type,externalId,name,industry,annualRevenue,links,body\naccount,acc-1,Northwind Health,Healthcare,420000000,,"Hospital network, twelve sites"\ncontact,c-1,Maria Chen,,,account:acc-1,\n',
    );
    const first = await importEntities({ entities: c.entities, actor, file, format: "csv" });
    expect(first).toMatchObject({ records: 2, created: 2, updated: 0, skipped: 0, problems: [] });
    const again = await importEntities({ entities: c.entities, actor, file, format: "csv" });
    expect(again).toMatchObject({ created: 0, updated: 2 });
    const [contact] = (await c.entities.list(actor, { type: "contact" })).items;
    const [account] = (await c.entities.list(actor, { type: "account" })).items;
    expect(account?.fields).toEqual({ industry: "Healthcare", annualRevenue: 420000000 });
    expect(account?.body).toBe("Hospital network, twelve sites");
    expect(contact?.links).toEqual([account?.id]);
  });

  it("reports bad lines by number and writes nothing, unless told to skip them", async () => {
    const actor = await freshActor();
    const file = write(
      "bad.csv",
      "type,name\naccount,Good One\naccount,\nBad Type,Something\naccount,Good Two\n",
    );
    const strict = await importEntities({ entities: c.entities, actor, file, format: "csv" });
    expect(strict.problems.map((p) => p.where)).toEqual(["line 3", "line 4"]);
    expect(strict.problems[0]?.message).toContain("name");
    expect(strict.problems[1]?.message).toContain("type");
    expect(await total(actor)).toBe(0);
    const lenient = await importEntities({
      entities: c.entities,
      actor,
      file,
      format: "csv",
      skipInvalid: true,
    });
    expect(lenient).toMatchObject({ records: 4, created: 2, skipped: 2 });
    expect(await total(actor)).toBe(2);
  });

  it("reads JSON arrays and JSON Lines, naming bad items and lines, with a default type", async () => {
    const actor = await freshActor();
    const json = write(
      "e.json",
      JSON.stringify([{ name: "Alpha" }, 42, { name: "Beta", fields: { stage: "Proposal" } }]),
    );
    const fromJson = await importEntities({
      entities: c.entities,
      actor,
      file: json,
      format: "json",
      defaultType: "opportunity",
    });
    expect(fromJson.problems).toEqual([{ where: "item 2", message: "expected a JSON object" }]);
    const jsonl = write(
      "e.jsonl",
      '{"name":"Gamma","externalId":"g"}\n{not json\n\n{"name":"Gamma again","externalId":"g"}\n',
    );
    const fromJsonl = await importEntities({
      entities: c.entities,
      actor,
      file: jsonl,
      format: "jsonl",
      defaultType: "note",
      skipInvalid: true,
    });
    expect(fromJsonl.problems[0]?.where).toBe("line 2");
    // The same externalId twice: the later record updates the earlier one.
    expect(fromJsonl).toMatchObject({ created: 1, updated: 1, skipped: 1 });
    expect((await c.entities.list(actor, { type: "note" })).items.map((e) => e.name)).toEqual([
      "Gamma again",
    ]);
    const missingType = await importEntities({ entities: c.entities, actor, file: json, format: "json" });
    expect(missingType.problems[0]?.message).toContain("--type");
  });

  it("imports a large file in batches with constant memory", async () => {
    const actor = await freshActor();
    const lines = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({
        type: "note",
        externalId: `n${i}`,
        name: `Note ${i}`,
        body: "Customer asked about pricing and renewal.",
      }),
    );
    const file = write("big.jsonl", `${lines.join("\n")}\n`);
    const seen: number[] = [];
    const summary = await importEntities({
      entities: c.entities,
      actor,
      file,
      format: "jsonl",
      batchSize: 1000,
      onProgress: (p) => seen.push(p.bytes),
    });
    expect(summary).toMatchObject({ records: 3000, created: 3000 });
    expect(seen.at(-1)).toBe(fs.statSync(file).size);
    expect(await total(actor)).toBe(3000);
  });
});
