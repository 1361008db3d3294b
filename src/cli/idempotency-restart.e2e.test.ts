import { describe, expect, it } from "vitest";
import { demoClient, serverSandbox } from "../../test/cli.ts";
import { freePort } from "../../test/postgres-cluster.ts";

// Stored answers live in the database: a retry after the server restarted still gets the first.

describe("Idempotency-Key across a restart", () => {
  const sandbox = serverSandbox();

  it("replays the first answer after a restart", async () => {
    const port = await freePort();
    const env = sandbox.env(port);
    const server = await sandbox.start(env, ["--json"]);
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

    await sandbox.start(env);
    const replay = await generate("Account review for Northwind Health");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(body);
    const other = await generate("Account review for Blue Harbor Bank");
    expect(other.status).toBe(422);
  }, 60_000);
});
