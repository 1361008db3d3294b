import { z } from "zod";
import { listTemplates, listThemes } from "../catalog/catalog.ts";
import { DEFAULT_TEMPLATE_ID } from "../catalog/templates.ts";
import { DEFAULT_THEME_ID } from "../catalog/themes.ts";
import { presentationStatusSchema } from "../presentations/presentation-schemas.ts";

const instructions = (description: string) =>
  z
    .string()
    .trim()
    .min(1, "is required")
    .max(20_000, "is longer than 20,000 characters")
    .describe(description);

export const generateInputSchema = z
  .object({
    instructions: instructions("What the deck is for, in your words: subject, audience, what to cover"),
    templateId: z
      .string()
      .default(DEFAULT_TEMPLATE_ID)
      .refine(
        (id) => listTemplates().some((t) => t.id === id),
        "is not a template; GET /v1/templates lists them",
      )
      .describe("From GET /v1/templates; default general"),
    themeId: z
      .string()
      .default(DEFAULT_THEME_ID)
      .refine((id) => listThemes().some((t) => t.id === id), "is not a theme; GET /v1/themes lists them")
      .describe("From GET /v1/themes; default clean"),
    slideCount: z
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe("How many slides, 1 to 50; default: what the template needs"),
    language: z
      .string()
      .trim()
      .min(2)
      .max(35)
      .optional()
      .describe("e.g. en, fr, German; the built-in composer writes English only"),
    tone: z.string().trim().min(1).max(100).optional().describe("e.g. formal, neutral, casual"),
    audience: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe("Who will see it, e.g. the customer's CFO"),
  })
  .strict();
export type GenerateInput = z.output<typeof generateInputSchema>;

export const generateResultSchema = z
  .object({
    presentationId: z.string(),
    status: presentationStatusSchema,
    name: z.string(),
    summary: z.string().describe("The deck's summary; while generating, what is being made"),
    url: z.string().describe("The deck in the browser viewer"),
    revision: z.int().optional().describe("The revision the generation committed"),
    failureReason: z.string().optional(),
  })
  .meta({ id: "GenerateResult" });
export type GenerateResult = z.output<typeof generateResultSchema>;

export const editInputSchema = z
  .object({
    instructions: instructions('What to change, e.g. "rename the deck to Q3 review and remove slide 4"'),
  })
  .strict();

export const editResultSchema = z
  .object({
    status: z.literal("updated"),
    changesApplied: z.array(z.string()).describe("One line per change, in the order applied"),
    revision: z.int().describe("The revision this edit created"),
  })
  .meta({ id: "EditResult" });
export type EditResult = z.output<typeof editResultSchema>;

export const revisionSchema = z
  .object({
    number: z.int(),
    kind: z.enum(["generate", "edit", "restore"]),
    instructions: z.string().optional(),
    changes: z.array(z.string()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Revision" });

export const revisionListSchema = z.object({ items: z.array(revisionSchema), current: z.int() });
