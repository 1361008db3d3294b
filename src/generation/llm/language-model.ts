import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { Config } from "../../config.ts";

// The configured model, through the Vercel AI SDK. OpenAI goes through the Chat Completions API,
// which OpenAI-compatible servers (Ollama, vLLM, LM Studio) speak too.

export function createLanguageModel(llm: NonNullable<Config["llm"]>): LanguageModel {
  switch (llm.provider) {
    case "openai":
      return createOpenAI({ apiKey: llm.apiKey, baseURL: llm.baseUrl }).chat(llm.model);
    case "anthropic":
      return createAnthropic({ apiKey: llm.apiKey, baseURL: llm.baseUrl })(llm.model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "llm",
        baseURL: llm.baseUrl as string,
        apiKey: llm.apiKey,
      }).chatModel(llm.model);
  }
}
