import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/app.ts";
import { engineUnavailable, testEngine } from "../../../test/database.ts";
import { createTenant } from "../../../test/factories.ts";

describe.skipIf(engineUnavailable)("entities API", () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let other: Awaited<ReturnType<typeof createTenant>>;

  const post = (url: string, payload: unknown, headers = tenant.headers) =>
    t.app.inject({ method: "POST", url, payload: payload as object, headers });
  const get = (url: string, headers = tenant.headers) => t.app.inject({ method: "GET", url, headers });
  const count = async (headers = tenant.headers) =>
    (await get("/v1/entities?limit=1", headers)).json().total as number;

  const crm = [
    {
      type: "account",
      externalId: "acc-1",
      name: "Northwind Health",
      fields: { industry: "Hospitals and clinics", annualRevenue: 420000000 },
      body: "Regional hospital network with twelve medical centers.",
    },
    {
      type: "account",
      externalId: "acc-2",
      name: "Contoso Outfitters",
      fields: { industry: "Retail" },
      body: "Online store for hiking boots and outdoor clothing.",
    },
    {
      type: "contact",
      externalId: "con-1",
      name: "Maria Chen",
      fields: { title: "Chief Financial Officer", email: "maria@northwind.example" },
      links: [{ type: "account", externalId: "acc-1" }],
    },
    {
      type: "contact",
      externalId: "con-2",
      name: "Tom Baker",
      fields: { title: "Warehouse supervisor" },
      links: [{ type: "account", externalId: "acc-2" }],
    },
    {
      type: "note",
      externalId: "note-1",
      name: "Call with Maria",
      body: "Maria is unhappy with support response times and is considering cancelling the contract at renewal.",
      links: [
        { type: "contact", externalId: "con-1" },
        { type: "account", externalId: "acc-1" },
      ],
    },
  ];

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await createTenant(t.c);
    other = await createTenant(t.c);
    const res = await post("/v1/entities", { entities: crm });
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it("upserts idempotently: the same batch again updates and creates nothing", async () => {
    const again = await post("/v1/entities", { entities: crm });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: 0, updated: 5 });
    expect(await count()).toBe(5);
    const changed = await post("/v1/entities", {
      entities: [
        { ...crm[1], name: "Contoso Outfitters Ltd" },
        { type: "product", name: "Sensor kit" },
      ],
    });
    expect(changed.json()).toMatchObject({ created: 1, updated: 1 });
    expect(changed.json().items[0]).toMatchObject({
      type: "account",
      externalId: "acc-2",
      status: "updated",
    });
    expect(await count()).toBe(6);
  });

  it("stores any text exactly: quotes, backslashes, braces, commas, NULL-like words", async () => {
    const tricky = "He said \"hi\", {braces} \\back\\slash\\ NULL , 'single' ü 日本";
    const res = await post("/v1/entities", {
      entities: [{ type: "note", name: tricky, body: tricky, fields: { t: tricky } }],
    });
    expect(res.statusCode).toBe(200);
    const stored = (await get(`/v1/entities/${res.json().items[0].id}`)).json();
    expect(stored).toMatchObject({ name: tricky, body: tricky, fields: { t: tricky } });
    expect(stored).not.toHaveProperty("externalId");
    await t.app.inject({ method: "DELETE", url: `/v1/entities/${stored.id}`, headers: tenant.headers });
  });

  it("resolves links by externalId within the batch and by id", async () => {
    const list = (await get("/v1/entities?type=note")).json();
    expect(list.items).toHaveLength(1);
    const note = list.items[0];
    expect(note.links).toHaveLength(2);
    const accounts = (await get("/v1/entities?type=account")).json().items;
    const northwind = accounts.find((a: { name: string }) => a.name === "Northwind Health");
    expect(note.links).toContain(northwind.id);
    const byId = await post("/v1/entities", {
      entities: [
        {
          type: "note",
          name: "Follow-up",
          body: "Sent pricing.",
          links: [{ id: northwind.id.toUpperCase() }],
        },
      ],
    });
    expect(byId.statusCode).toBe(200);
    const created = (await get(`/v1/entities/${byId.json().items[0].id}`)).json();
    expect(created).toMatchObject({ type: "note", name: "Follow-up", links: [northwind.id], fields: {} });
    expect(created.embeddingModel).toBe(t.c.entities.embedder.model);
  });

  it.each([
    ["an unknown-format type", { entities: [{ type: "Bad-Type", name: "x" }] }, "body.entities.0.type"],
    [
      "fields that are not an object",
      { entities: [{ type: "account", name: "x", fields: ["a"] }] },
      "body.entities.0.fields",
    ],
    [
      "a nested field value",
      { entities: [{ type: "account", name: "x", fields: { deep: { a: 1 } } }] },
      "body.entities.0.fields.deep",
    ],
    ["a missing name", { entities: [{ type: "account" }] }, "body.entities.0.name"],
    ["an empty batch", { entities: [] }, "body.entities"],
    [
      "over 1000 items",
      { entities: Array.from({ length: 1001 }, (_, i) => ({ type: "note", name: `n${i}` })) },
      "body.entities",
    ],
    [
      "a duplicate externalId in the batch",
      {
        entities: [
          { type: "account", externalId: "dup", name: "a" },
          { type: "account", externalId: "dup", name: "b" },
        ],
      },
      "body.entities.1.externalId",
    ],
    ["an unknown property", { entities: [{ type: "account", name: "x", colour: "red" }] }, "body.entities.0"],
  ])("rejects %s with 400 naming the field, writing nothing", async (_label, payload, path) => {
    const before = await count();
    const res = await post("/v1/entities", payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("invalid_request");
    expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await count()).toBe(before);
  });

  it("rejects a link to nothing and writes none of the batch", async () => {
    const before = await count();
    const res = await post("/v1/entities", {
      entities: [
        { type: "account", externalId: "acc-new", name: "Would be created" },
        { type: "contact", name: "Orphan", links: [{ type: "account", externalId: "missing" }] },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe("entities.1.links.0");
    expect(await count()).toBe(before);
  });

  it("lists with a type filter and bounds, and gets one", async () => {
    const res = await get("/v1/entities?type=contact&limit=1");
    expect(res.json().total).toBe(2);
    expect(res.json().items).toHaveLength(1);
    expect((await get("/v1/entities?limit=101")).statusCode).toBe(400);
    expect((await get("/v1/entities?type=NOPE")).statusCode).toBe(400);
    expect((await get(`/v1/entities/${"0".repeat(24)}`)).statusCode).toBe(404);
    expect((await get("/v1/entities/xyz")).statusCode).toBe(400);
  });

  it("searches by keyword, by meaning, and by both", async () => {
    const search = async (body: object) => {
      const res = await post("/v1/entities/search", body);
      expect(res.statusCode).toBe(200);
      return res.json() as {
        items: { name: string; type: string; snippet: string; score: number }[];
        tookMs: number;
      };
    };
    const keyword = await search({ query: "Contoso", mode: "keyword" });
    expect(keyword.items[0]?.name).toMatch(/^Contoso/);
    const hospitals = await search({ query: "healthcare providers", mode: "semantic", types: ["account"] });
    expect(hospitals.items[0]?.name).toBe("Northwind Health");
    const finance = await search({ query: "finance leaders", types: ["contact"] });
    expect(finance.items[0]?.name).toBe("Maria Chen");
    const churn = await search({ query: "cancelling the contract", limit: 3 });
    expect(churn.items.map((i) => i.name)).toContain("Call with Maria");
    expect(churn.items.find((i) => i.name === "Call with Maria")?.snippet).toContain(
      "cancelling the contract",
    );
    expect(churn.tookMs).toBeGreaterThanOrEqual(0);
    expect(churn.items.length).toBeLessThanOrEqual(3);
  });

  it("validates search input", async () => {
    for (const body of [
      { query: "" },
      { query: "x".repeat(1001) },
      { query: "x", limit: 51 },
      { query: "x", mode: "fuzzy" },
      { query: "x", types: ["Bad"] },
      {},
    ]) {
      const res = await post("/v1/entities/search", body);
      expect(res.statusCode).toBe(400);
    }
  });

  it(`scores with ${testEngine === "pglite" ? "the pgvector HNSW index" : "exact scoring where pgvector is missing"}`, async () => {
    const indexes = await t.c.database.query<{ indexname: string }>(
      "select indexname from pg_indexes where tablename = 'entities'",
    );
    const hnsw = indexes.some((i) => i.indexname.startsWith("entities_hnsw_"));
    expect(hnsw).toBe(t.c.database.vector);
    if (testEngine === "pglite") expect(t.c.database.vector).toBe(true);
  });

  it("keeps workspaces apart in every endpoint and in search", async () => {
    const mine = (await get("/v1/entities?limit=1")).json().items[0];
    expect((await get(`/v1/entities/${mine.id}`, other.headers)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/v1/entities/${mine.id}`, headers: other.headers }))
        .statusCode,
    ).toBe(404);
    expect(await count(other.headers)).toBe(0);
    const found = await post("/v1/entities/search", { query: "Northwind hospital Maria" }, other.headers);
    expect(found.json().items).toEqual([]);
    // A link to another workspace's entity is refused.
    const cross = await post(
      "/v1/entities",
      { entities: [{ type: "note", name: "x", links: [{ id: mine.id }] }] },
      other.headers,
    );
    expect(cross.statusCode).toBe(400);
  });

  it("lets viewers read and search but not write", async () => {
    const viewer = await createTenant(t.c, { role: "viewer" });
    expect(
      (await post("/v1/entities", { entities: [{ type: "note", name: "x" }] }, viewer.headers)).statusCode,
    ).toBe(403);
    expect((await post("/v1/entities/search", { query: "x" }, viewer.headers)).statusCode).toBe(200);
    expect((await get("/v1/entities", viewer.headers)).statusCode).toBe(200);
  });

  it("deletes an entity and the links that point at it", async () => {
    const account = (await get("/v1/entities?type=account"))
      .json()
      .items.find((a: { name: string }) => a.name === "Northwind Health");
    const res = await t.app.inject({
      method: "DELETE",
      url: `/v1/entities/${account.id}`,
      headers: tenant.headers,
    });
    expect(res.statusCode).toBe(204);
    expect((await get(`/v1/entities/${account.id}`)).statusCode).toBe(404);
    const notes = (await get("/v1/entities?type=note&limit=100")).json().items;
    for (const n of notes) expect(n.links).not.toContain(account.id);
  });
});
