import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, runCli, startServer } from "../../test/cli.ts";
import { freePort } from "../../test/postgres-cluster.ts";
import { TEST_EMBEDDINGS_DIR } from "../../test/setup-embeddings.ts";

describe("decksmith CLI, end to end", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-cli-"));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: "warn", EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_DIR };
  let server: RunningServer | undefined;
  let workspaceId = "";

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("first start creates a demo account and prints a curl that works over real HTTP", async () => {
    const port = await freePort();
    server = await startServer({ ...env, PORT: String(port) });
    const out = server.output();
    expect(out).toContain("First run");
    const curl = /curl -H "Authorization: Bearer (ak_\w+)" (\S+)/.exec(out);
    expect(curl).not.toBeNull();
    const [, key, url] = curl as RegExpExecArray;
    const res = await fetch(url as string, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const [workspace] = await res.json();
    expect(workspace).toMatchObject({ name: "Demo workspace", plan: "pro", role: "owner" });

    const presentations = await fetch(`http://127.0.0.1:${port}/v1/presentations`, {
      headers: { authorization: `Bearer ${key}`, "x-workspace-id": workspace.id },
    });
    expect(await presentations.json()).toEqual({ items: [], total: 0 });
    const search = await fetch(`http://127.0.0.1:${port}/v1/entities/search`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "x-workspace-id": workspace.id,
        "content-type": "application/json",
      },
      body: JSON.stringify({ query: "hospitals", types: ["account"], limit: 3 }),
    });
    const found = await search.json();
    expect(found.items).toHaveLength(3);
    expect(found.items[0].fields.industry).toBe("Healthcare");
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  });

  it("a second process on the same data directory fails with a clear error", async () => {
    const second = await runCli(["serve"], { ...env, PORT: String(await freePort()) });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/in use by another Decksmith process \(pid \d+\)/);
  });

  it("stops cleanly, and a restart prints nothing secret", async () => {
    expect(await server?.stop()).toBe(0);
    server = await startServer({ ...env, PORT: String(await freePort()) }, ["--json"]);
    const ready = JSON.parse(server.output().trim().split("\n")[0] ?? "");
    expect(ready).toMatchObject({ status: "ready", database: "pglite", startMs: expect.any(Number) });
    expect(ready.demo).toBeUndefined();
    expect(server.output()).not.toMatch(/ak_\w{43}/);
    expect(await server.stop()).toBe(0);
    server = undefined;
  });

  it("manages users, workspaces, members and keys with --json output", async () => {
    const json = async (args: string[]) => {
      const r = await runCli([...args, "--json"], env);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect(await json(["migrate"])).toEqual({ migrated: true, database: "pglite" });
    const user = await json([
      "users",
      "create",
      "--email",
      "Grace@Example.com",
      "--password",
      "hopper1906",
      "--name",
      "Grace",
    ]);
    expect(user).toMatchObject({ email: "grace@example.com", name: "Grace" });
    await json(["users", "create", "--email", "bob@example.com", "--password", "bobbobbob"]);
    const ws = await json(["workspaces", "create", "--name", "Navy", "--owner", "grace@example.com"]);
    expect(ws).toMatchObject({ name: "Navy", plan: "pro", id: expect.stringMatching(/^[a-f0-9]{24}$/) });
    workspaceId = ws.id;
    expect(
      await json(["members", "add", "--workspace", ws.id, "--email", "bob@example.com", "--role", "viewer"]),
    ).toMatchObject({ role: "viewer" });
    expect(
      await json(["members", "remove", "--workspace", ws.id, "--email", "bob@example.com"]),
    ).toMatchObject({
      removed: true,
    });
    const again = await runCli(
      ["members", "remove", "--workspace", ws.id, "--email", "bob@example.com", "--json"],
      env,
    );
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ code: "not_found" });
    const key = await json(["keys", "create", "--email", "grace@example.com", "--name", "laptop"]);
    expect(key.key).toMatch(/^ak_\w{43}$/);
    const listed = await json(["keys", "list", "--email", "grace@example.com"]);
    expect(listed.keys).toEqual([expect.objectContaining({ id: key.id, name: "laptop", revokedAt: null })]);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    const revoked = await json(["keys", "revoke", "--id", key.id]);
    expect(revoked.revokedAt).toEqual(expect.any(String));
  }, 90_000); // a dozen CLI processes, each opening the embedded database

  it("fails with a clear message and a non-zero exit on bad input", async () => {
    const dup = await runCli(
      ["users", "create", "--email", "grace@example.com", "--password", "hopper1906", "--json"],
      env,
    );
    expect(dup.code).toBe(1);
    expect(JSON.parse(dup.stderr)).toMatchObject({ code: "conflict" });
    const weak = await runCli(["users", "create", "--email", "not-an-email", "--password", "short"], env);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain("email: must be an email address");
    expect(weak.stderr).toContain("password: must be at least 8 characters");
    const role = await runCli(
      ["members", "add", "--workspace", "f".repeat(24), "--email", "bob@example.com", "--role", "boss"],
      env,
    );
    expect(role.code).toBe(1);
    const missing = await runCli(["keys", "create", "--email", "grace@example.com"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("--name");
    const help = await runCli(["keys", "create", "--help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--email <email>");
  });

  it("imports entities with a report of bad lines, loads demo data and re-indexes", async () => {
    const csv = path.join(dataDir, "accounts.csv");
    fs.writeFileSync(
      csv,
      "externalId,name,industry\na-1,Northwind Health,Healthcare\na-2,,Retail\na-3,Contoso,Retail\n",
    );
    const strict = await runCli(
      ["entities", "import", "--workspace", workspaceId, "--type", "account", csv],
      env,
    );
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("1 of 3 records are invalid; nothing was imported");
    expect(strict.stderr).toContain("line 3: name");
    const lenient = await runCli(
      [
        "entities",
        "import",
        "--workspace",
        workspaceId,
        "--type",
        "account",
        "--skip-invalid",
        "--json",
        csv,
      ],
      env,
    );
    expect(lenient.code).toBe(0);
    expect(JSON.parse(lenient.stdout)).toMatchObject({
      records: 3,
      created: 2,
      skipped: 1,
      problems: [{ where: "line 3" }],
    });
    const human = await runCli(
      ["entities", "import", "--workspace", workspaceId, "--type", "account", "--skip-invalid", csv],
      env,
    );
    expect(human.stdout).toMatch(
      /Imported 2 of 3 records in [\d.]+ s \(\d+\/s\): 0 created, 2 updated, 1 skipped/,
    );
    expect(human.stderr).toContain("Importing");
    const unknown = await runCli(["entities", "import", "--workspace", workspaceId, "data.xml"], env);
    expect(unknown.code).toBe(1);
    const demo = await runCli(["demo", "load", "--workspace", workspaceId, "--json"], env);
    expect(JSON.parse(demo.stdout).created).toBeGreaterThanOrEqual(470);
    const reindex = await runCli(["entities", "reindex", "--json"], env);
    expect(JSON.parse(reindex.stdout)).toMatchObject({ reindexed: 0 });
  });
});
