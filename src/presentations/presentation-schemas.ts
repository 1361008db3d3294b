import { z } from "zod";
import { ID_PATTERN } from "../ids.ts";
import { paginationSchema } from "../pagination.ts";
import { presentationStatuses } from "../storage/schema.ts";

// Shapes shared by REST, MCP and jobs. Field names and types follow the API spec (§2).

export const presentationIdSchema = z
  .string()
  .regex(ID_PATTERN, "must be 24 hexadecimal characters")
  .transform((id) => id.toLowerCase())
  .describe("Presentation id: 24 hexadecimal characters, matched case-insensitively");

export const listQuerySchema = paginationSchema;
export type ListQuery = z.output<typeof listQuerySchema>;

export const presentationStatusSchema = z
  .enum(presentationStatuses)
  .describe("generating → ready | failed | stopped");

export const presentationSchema = z
  .object({
    id: z.string().describe("24 lowercase hexadecimal characters"),
    name: z.string(),
    status: presentationStatusSchema,
    summary: z.string().optional(),
    slideCount: z.int(),
    createdAt: z.iso.datetime().describe("ISO 8601 date-time in UTC"),
    templateName: z.string().optional(),
    themeName: z.string().optional(),
  })
  .meta({ id: "Presentation" });
export type PresentationItem = z.output<typeof presentationSchema>;

export const slideSchema = z
  .object({
    index: z.int().describe("Position in the deck, from 0"),
    layoutName: z.string().optional(),
    placeholders: z.record(z.string(), z.string()),
  })
  .meta({ id: "Slide" });
export type Slide = z.output<typeof slideSchema>;

export const discussionTopicSchema = z
  .object({ topic: z.string(), details: z.string(), notes: z.string().optional() })
  .meta({ id: "DiscussionTopic" });
export type DiscussionTopic = z.output<typeof discussionTopicSchema>;

export const presentationDetailSchema = presentationSchema
  .extend({
    templateId: z.string().optional(),
    themeId: z.string().optional(),
    failureReason: z.string().optional().describe("Why generation failed, when status is failed"),
    updatedAt: z.iso.datetime(),
    slides: z.array(slideSchema),
    discussionTopics: z.array(discussionTopicSchema),
  })
  .meta({ id: "PresentationDetail" });
export type PresentationDetail = z.output<typeof presentationDetailSchema>;

export const presentationListSchema = z
  .object({ items: z.array(presentationSchema), total: z.int() })
  .meta({ id: "PresentationList" });
export type PresentationList = z.output<typeof presentationListSchema>;
