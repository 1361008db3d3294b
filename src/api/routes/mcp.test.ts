import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoApp, startDemoApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";

// The MCP server over Streamable HTTP, driven by the MCP SDK's own client.

describe.skipIf(engineUnavailable)("MCP over Streamable HTTP", () => {
  let t: TestApp;
  let tenant: DemoApp["tenant"];
  let base: string;
  let client: Client;

  const connect = async (key: string) => {
    const c = new Client({ name: "decksmith-test", version: "1.0.0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    return c;
  };
  type Result = {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content: { text: string }[];
  };
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;

  beforeAll(async () => {
    ({ t, tenant } = await startDemoApp());
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    client = await connect(tenant.key);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("lists every tool with a description and an input schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([
      "edit_presentation",
      "export_presentation",
      "generate_presentation",
      "get_presentation",
      "list_presentations",
      "list_templates",
      "list_themes",
      "list_workspaces",
      "search_entities",
      "upsert_entities",
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
    }
    const generate = tools.find((x) => x.name === "generate_presentation");
    expect(generate?.inputSchema.required).toContain("instructions");
  });

  it("generates, reads, edits, searches and exports through tools", async () => {
    const workspaces = await call("list_workspaces");
    expect((workspaces.structuredContent?.items as { id: string }[] | undefined)?.[0]?.id).toBe(
      tenant.workspace.id,
    );
    const generated = await call("generate_presentation", {
      instructions: "Account review for Northwind Health",
      templateId: "account-review",
    });
    expect(generated.isError).toBeFalsy();
    const { presentationId, status } = generated.structuredContent as {
      presentationId: string;
      status: string;
    };
    expect(status).toBe("ready");
    const deck = await call("get_presentation", { presentationId });
    expect((deck.structuredContent?.slides as unknown[] | undefined)?.length).toBeGreaterThan(3);
    const edited = await call("edit_presentation", {
      presentationId,
      instructions: 'rename the deck to "From MCP"',
    });
    expect(edited.structuredContent).toMatchObject({
      status: "updated",
      changesApplied: ['Renamed the deck to "From MCP"'],
      revision: 2,
    });
    const found = await call("search_entities", { query: "Northwind Health", types: ["account"], limit: 1 });
    expect((found.structuredContent?.items as { name: string }[] | undefined)?.[0]?.name).toBe(
      "Northwind Health",
    );
    const exported = await call("export_presentation", { presentationId, format: "pdf" });
    expect(exported.structuredContent?.downloadUrl).toMatch(/\/downloads\?/);
    const upserted = await call("upsert_entities", {
      entities: [{ type: "account", externalId: "mcp-1", name: "MCP Labs" }],
    });
    expect(upserted.structuredContent).toMatchObject({ created: 1 });
  });

  it("answers errors as isError results with the API's codes", async () => {
    const missing = await call("get_presentation", { presentationId: "6b0000000000000000000099" });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.content[0]?.text ?? "{}")).toMatchObject({ code: "not_found" });
    // Another workspace's presentation is just as unknown.
    const other = await createTenant(t.c);
    const theirs = await t.c.presentationRepository.insert(other.workspace.id, {
      name: "Theirs",
      status: "ready",
    });
    const foreign = await call("get_presentation", { presentationId: theirs.id });
    expect(JSON.parse(foreign.content[0]?.text ?? "{}").code).toBe("not_found");
    const foreignWorkspace = await call("list_presentations", { workspaceId: other.workspace.id });
    expect(JSON.parse(foreignWorkspace.content[0]?.text ?? "{}").code).toBe("not_found");
    const invalid = await call("generate_presentation", { instructions: "x", slideCount: 99 });
    expect(invalid.isError).toBe(true);
  });

  it("refuses a request without a valid key with 401 and WWW-Authenticate", async () => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    await expect(connect("ak_notAKey")).rejects.toThrow();
  });

  it("checks Host and Origin against DNS rebinding, and is stateless", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${tenant.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
    // fetch may not set Host; a raw request can, as a rebinding page's browser would send it.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/mcp`, {
        method: "POST",
        headers: {
          host: "evil.example",
          authorization: `Bearer ${tenant.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    });
    expect(rebound).toBe(403);
    expect((await post({ origin: base })).status).toBe(200);
    expect((await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${tenant.key}` } })).status).toBe(
      405,
    );
  });
});
