import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { DeckEditor } from "./editing-service.ts";
import type { DeckComposer } from "./generation-service.ts";
import { createLanguageModel } from "./llm/language-model.ts";
import { createLlmComposer } from "./llm/llm-composer.ts";
import { createLlmEditor } from "./llm/llm-editor.ts";
import type { LlmUsage } from "./llm/usage.ts";
import { composeOffline, OFFLINE_LANGUAGES } from "./offline/composer.ts";
import { editOffline } from "./offline/offline-editor.ts";

// Who writes and edits decks: the configured language model, or the built-in composer and
// editor when none is configured (the default, offline).

export type Agent = {
  composer: DeckComposer;
  editor: DeckEditor;
  /** Languages it writes, when not all. */
  languages?: { pattern: RegExp; hint: string };
  describe: string;
};

export function createAgent(config: Config, log: Logger): Agent {
  if (!config.llm) {
    return {
      composer: (request, reader, _signal, progress) => composeOffline(request, reader, progress),
      editor: { replayable: true, edit: (env, instructions) => editOffline(env, instructions) },
      languages: {
        pattern: OFFLINE_LANGUAGES,
        hint: "the built-in composer writes English only (en); set LLM_PROVIDER to write other languages",
      },
      describe: "built-in composer (no language model configured)",
    };
  }
  const { llm } = config;
  const model = createLanguageModel(llm);
  const report = (what: string) => (usage: LlmUsage) =>
    log.info({ llm: usage, model: llm.model }, `${what}: language model usage`);
  const settings = { model, timeoutMs: llm.timeoutMs, concurrency: llm.concurrency };
  return {
    composer: createLlmComposer(settings, report("generation")),
    editor: createLlmEditor({ ...settings, maxSteps: llm.maxSteps }, report("edit")),
    describe: `${llm.provider} ${llm.model}`,
  };
}
