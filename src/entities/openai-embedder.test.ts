import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { createOpenAiEmbedder } from "./openai-embedder.ts";

// A local server speaking OpenAI's POST /v1/embeddings, as Ollama, vLLM and TEI do.
describe("OpenAI-compatible embedder", () => {
  let server: http.Server;
  let baseUrl: string;
  const requests: { auth?: string; input: string[]; model: string }[] = [];
  let failNext = false;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        const parsed = JSON.parse(body) as { input: string[]; model: string };
        requests.push({ auth: req.headers.authorization, ...parsed });
        if (failNext) {
          failNext = false;
          res.writeHead(500).end("boom");
          return;
        }
        // Deterministic 3-d vectors from the text; answered out of order, as the API allows.
        const data = parsed.input
          .map((text, index) => ({ index, embedding: [text.length, 1, text.includes("a") ? 1 : 0] }))
          .reverse();
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ data, model: parsed.model }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("learns the dimension, batches, keeps order, sends the key, and normalizes", async () => {
    const embedder = await createOpenAiEmbedder({ baseUrl, model: "nomic-embed-text", apiKey: "sk-test" });
    expect(embedder.dims).toBe(3);
    expect(embedder.model).toBe("openai-compatible:nomic-embed-text");
    const texts = Array.from({ length: 200 }, (_, i) => "x".repeat(i + 1));
    texts[5] = "   ";
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(200);
    expect(vectors[5]).toBeNull(); // nothing to embed
    const v0 = vectors[0] as Float32Array;
    expect(Math.hypot(...v0)).toBeCloseTo(1, 5);
    expect((vectors[9] as Float32Array)[0]).toBeGreaterThan(v0[0] as number); // longer text, bigger first component
    expect(requests.every((r) => r.auth === "Bearer sk-test" && r.model === "nomic-embed-text")).toBe(true);
    expect(Math.max(...requests.map((r) => r.input.length))).toBeLessThanOrEqual(96);
  });

  it("turns a failing server into upstream_unavailable", async () => {
    const embedder = await createOpenAiEmbedder({ baseUrl, model: "m" });
    failNext = true;
    await expect(embedder.embed(["hello"])).rejects.toMatchObject({ code: "upstream_unavailable" });
    await expect(
      createOpenAiEmbedder({ baseUrl: "http://127.0.0.1:9/v1", model: "m" }),
    ).rejects.toBeInstanceOf(AppError);
  });
});
