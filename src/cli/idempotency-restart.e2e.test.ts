import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { demoClient, type RunningServer, startServer } from "../../test/cli.ts";
import { freePort } from "../../test/postgres-cluster.ts";
import { TEST_EMBEDDINGS_DIR } from "../../test/setup-embeddings.ts";

// Stored answers live in the database: a retry after the server restarted still gets the first.

describe("Idempotency-Key across a restart", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-idem-"));
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("replays the first answer after a restart", async () => {
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "warn",
      EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_DIR,
    };
    server = await startServer(env, ["--json"]);
    const client = demoClient(server, port);
    const generate = (instructions: string) =>
      fetch(`${client.base}/v1/presentations/generate`, {
        method: "POST",
        headers: { ...client.headers, "idempotency-key": "restart-1" },
        body: JSON.stringify({ instructions, templateId: "account-review" }),
      });
    const first = await generate("Account review for Northwind Health");
    expect(first.status).toBe(201);
    const body = await first.json();
    await server.stop();

    server = await startServer(env);
    const replay = await generate("Account review for Northwind Health");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(body);
    const other = await generate("Account review for Blue Harbor Bank");
    expect(other.status).toBe(422);
  }, 60_000);
});
