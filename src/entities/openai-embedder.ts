import { AppError } from "../errors.ts";
import { type Embedder, normalize } from "./embedder.ts";

// Any server speaking OpenAI's POST /v1/embeddings: OpenAI, Ollama, vLLM, Text Embeddings
// Inference, LM Studio. The dimension is learned from the first answer.

const BATCH = 96;
const TIMEOUT_MS = 30_000;

export async function createOpenAiEmbedder(options: {
  baseUrl: string;
  model: string;
  apiKey?: string;
  fetch?: typeof fetch;
}): Promise<Embedder> {
  const doFetch = options.fetch ?? fetch;

  async function call(input: string[]): Promise<Float32Array[]> {
    let response: Response;
    try {
      response = await doFetch(`${options.baseUrl}/embeddings`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: options.model, input }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new AppError(
        "upstream_unavailable",
        `The embeddings server did not answer: ${(err as Error).message}`,
      );
    }
    if (!response.ok) {
      throw new AppError("upstream_unavailable", `The embeddings server answered ${response.status}`);
    }
    const body = (await response.json()) as { data?: { index: number; embedding: number[] }[] };
    if (!Array.isArray(body.data) || body.data.length !== input.length) {
      throw new AppError(
        "upstream_unavailable",
        "The embeddings server answered without one vector per input",
      );
    }
    return [...body.data].sort((a, b) => a.index - b.index).map((d) => Float32Array.from(d.embedding));
  }

  const [probe] = await call(["dimension probe"]);
  const dims = probe?.length ?? 0;
  if (dims === 0)
    throw new AppError("upstream_unavailable", "The embeddings server answered an empty vector");

  return {
    model: `openai-compatible:${options.model}`,
    dims,
    async embed(texts) {
      const out: (Float32Array | null)[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH);
        // Empty texts have nothing to embed; servers reject them.
        const nonEmpty = batch.map((t, j) => [t.trim(), j] as const).filter(([t]) => t.length > 0);
        const vectors = nonEmpty.length > 0 ? await call(nonEmpty.map(([t]) => t)) : [];
        const byPosition = new Map(nonEmpty.map(([, j], k) => [j, vectors[k]]));
        for (let j = 0; j < batch.length; j++) {
          const v = byPosition.get(j);
          out.push(v && v.length === dims ? normalize(v) : null);
        }
      }
      return out;
    },
  };
}
