import { stepCountIs, tool } from "ai";
import { ZodError, type z } from "zod";
import { AppError } from "../../errors.ts";
import { deckTools, layoutCatalogText } from "../deck-tools.ts";
import type { DeckEditor } from "../editing-service.ts";
import { callModel, type LlmCall } from "./json-output.ts";
import type { LlmSettings } from "./llm-composer.ts";
import { emptyUsage, type LlmUsage } from "./usage.ts";

// Editing with a language model: a tool-calling loop over the deck tools, with a step limit. The
// model must read the deck before it may change it; a tool that fails answers the error, so the
// model can correct itself. Its changes are the tools' change lines, nothing else.

const SYSTEM = `You edit presentation decks for Decksmith with the tools you are given.
First call readDeck. When the instructions need data (figures, people, accounts), research it with searchEntities and getEntity; use only facts you found, never invented ones.
Then make targeted changes with the other tools: change only what the instructions ask for. Slide numbers count from 1.
When you are done, answer with one short sentence saying what you changed.
Layouts and their placeholders:
${layoutCatalogText()}`;

export function createLlmEditor(
  settings: LlmSettings & { maxSteps: number },
  onUsage?: (usage: LlmUsage) => void,
): DeckEditor {
  return {
    replayable: false,
    async edit(env, instructions, signal) {
      const usage = emptyUsage();
      const call: LlmCall = { model: settings.model, timeoutMs: settings.timeoutMs, signal, usage };
      let deckRead = false;
      const tools = Object.fromEntries(
        Object.entries(deckTools).map(([name, spec]) => [
          name,
          tool({
            description: spec.description,
            inputSchema: spec.input as z.ZodType<Record<string, unknown>>,
            execute: async (input: unknown) => {
              if (spec.changes && !deckRead)
                return "Error: call readDeck first, so your changes fit the deck as it is now";
              try {
                const output = await (spec.run as (e: typeof env, i: unknown) => string | Promise<string>)(
                  env,
                  spec.input.parse(input),
                );
                if (name === "readDeck") deckRead = true;
                return output;
              } catch (err) {
                if (err instanceof AppError || err instanceof ZodError) return `Error: ${err.message}`;
                throw err;
              }
            },
          }),
        ]),
      );
      try {
        const result = await callModel(call, {
          system: SYSTEM,
          prompt: instructions,
          tools,
          stopWhen: stepCountIs(settings.maxSteps),
        });
        if (env.draft.changes.length === 0) {
          throw new AppError(
            "edit_not_understood",
            `No change was made: ${result.text.trim().slice(0, 300) || "the model found nothing to change"}. Nothing was changed.`,
          );
        }
      } finally {
        onUsage?.(usage);
      }
    },
  };
}
