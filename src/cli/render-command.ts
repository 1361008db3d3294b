import fs from "node:fs";
import type { Command } from "commander";
import { z } from "zod";
import { AppError, parseInput } from "../errors.ts";
import { discussionTopicSchema, slideSchema } from "../presentations/presentation-schemas.ts";
import { renderHtml, renderPdf, renderPptx } from "../rendering/render.ts";
import { printFailure, printResult } from "./output.ts";

const deckFileSchema = z.object({
  name: z.string().min(1),
  themeId: z.string().optional(),
  slides: z.array(slideSchema).min(1),
  discussionTopics: z.array(discussionTopicSchema).default([]),
});

const formats = ["pptx", "pdf", "html"] as const;

export function registerRenderCommand(program: Command): void {
  program
    .command("render")
    .description("Render a deck (JSON in the API's PresentationDetail shape) to PPTX, PDF or HTML")
    .requiredOption("--input <file>", "deck JSON")
    .requiredOption("--format <format>", formats.join(" | "))
    .requiredOption("--out <file>", "where to write")
    .option("--json", "print one JSON object")
    .action(async (o: { input: string; format: string; out: string; json?: boolean }) => {
      const printer = { json: Boolean(o.json) };
      try {
        if (!(formats as readonly string[]).includes(o.format)) {
          throw new AppError("invalid_request", `--format must be one of ${formats.join(", ")}`);
        }
        let raw: unknown;
        try {
          raw = JSON.parse(fs.readFileSync(o.input, "utf8"));
        } catch (err) {
          throw new AppError("invalid_request", `Cannot read ${o.input} as JSON: ${(err as Error).message}`);
        }
        const deck = parseInput(deckFileSchema, raw);
        const started = performance.now();
        const output =
          o.format === "pptx"
            ? await renderPptx(deck)
            : o.format === "pdf"
              ? await renderPdf(deck)
              : renderHtml(deck);
        fs.writeFileSync(o.out, output);
        const ms = Math.round(performance.now() - started);
        const bytes = Buffer.byteLength(output);
        printResult(
          printer,
          { out: o.out, format: o.format, slides: deck.slides.length, bytes, ms },
          `Wrote ${o.out} (${deck.slides.length} slides, ${Math.round(bytes / 1024)} KB) in ${ms} ms.`,
        );
      } catch (err) {
        printFailure(printer, err);
        process.exitCode = 1;
      }
    });
}
