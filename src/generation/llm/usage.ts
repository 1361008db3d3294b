import type { LanguageModelUsage } from "ai";

// What a generation or an edit cost in language-model calls and tokens, for logs and benchmarks.

export type LlmUsage = { calls: number; inputTokens: number; outputTokens: number };

export const emptyUsage = (): LlmUsage => ({ calls: 0, inputTokens: 0, outputTokens: 0 });

export function addUsage(total: LlmUsage, usage: LanguageModelUsage | undefined, calls = 1): void {
  total.calls += calls;
  total.inputTokens += usage?.inputTokens ?? 0;
  total.outputTokens += usage?.outputTokens ?? 0;
}
