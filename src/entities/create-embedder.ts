import type { Config } from "../config.ts";
import type { Embedder } from "./embedder.ts";
import { createOpenAiEmbedder } from "./openai-embedder.ts";
import { createSifEmbedder } from "./sif-embedder.ts";
import { loadWordVectors, wordVectorsFile } from "./word-vectors.ts";

/** The configured embedder: the built-in offline one unless an OpenAI-compatible server is set. */
export async function createEmbedder(
  config: Config["embeddings"],
  log: (line: string) => void = () => {},
): Promise<Embedder> {
  if (config.provider === "openai-compatible") return createOpenAiEmbedder(config);
  return createSifEmbedder(loadWordVectors(wordVectorsFile(config.cacheDir, log)));
}
