import path from "node:path";
import { wordVectorsFile } from "../src/entities/word-vectors.ts";

// The offline embedder's word vectors are converted once per run into a directory every test
// shares (EMBEDDINGS_CACHE_DIR), instead of once per test data directory.
export const TEST_EMBEDDINGS_DIR = path.resolve(".test-data/embeddings");

export default function setup(): void {
  wordVectorsFile(TEST_EMBEDDINGS_DIR, (line) => console.log(line));
}
