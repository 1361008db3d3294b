import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, demoClient, runCli, runNodeScript, serverSandbox } from "../../test/cli.ts";
import { freePort } from "../../test/postgres-cluster.ts";

// The MCP Inspector's CLI, a client we did not write, against both transports.

const INSPECTOR = path.resolve("node_modules/@modelcontextprotocol/inspector-cli/build/index.js");

const inspect = (args: string[], env: Record<string, string> = {}) => runNodeScript(INSPECTOR, args, env);

describe("MCP Inspector CLI", () => {
  const sandbox = serverSandbox();

  it("lists and calls tools over HTTP", async () => {
    const port = await freePort();
    const server = await sandbox.start(sandbox.env(port), ["--json"]);
    const client = demoClient(server, port);
    const url = `${client.base}/mcp`;
    // Variadic options last, so they cannot take the target's place.
    const header = ["--header", `Authorization: ${client.headers.authorization}`];
    const target = [url, "--transport", "http"];
    const listed = await inspect([...target, "--method", "tools/list", ...header]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name)).toContain(
      "generate_presentation",
    );
    const called = await inspect([
      ...target,
      "--method",
      "tools/call",
      "--tool-name",
      "search_entities",
      ...header,
      "--tool-arg",
      "query=Northwind Health",
      "limit=1",
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).structuredContent.items[0].name).toBe("Northwind Health");
  }, 60_000);

  it("lists and calls tools over stdio (decksmith mcp)", async () => {
    const env = sandbox.env();
    const json = async (args: string[]) => JSON.parse((await runCli([...args, "--json"], env)).stdout);
    await json(["users", "create", "--email", "ada@example.com", "--password", "analytical-engine"]);
    await json(["workspaces", "create", "--name", "Engines", "--owner", "ada@example.com"]);
    const { key } = await json(["keys", "create", "--email", "ada@example.com", "--name", "assistant"]);
    // The Inspector starts `decksmith mcp` with its own environment.
    const stdio = [process.execPath, BIN, "mcp", "--transport", "stdio"];
    const childEnv = { ...env, DECKSMITH_API_KEY: key };
    const listed = await inspect([...stdio, "--method", "tools/list"], childEnv);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tools).toHaveLength(10);
    const called = await inspect(
      [...stdio, "--method", "tools/call", "--tool-name", "list_workspaces"],
      childEnv,
    );
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).structuredContent.items[0].name).toBe("Engines");
  }, 60_000);
});
