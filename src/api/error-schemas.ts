import { z } from "zod";
import { type ErrorCode, errorStatus } from "../errors.ts";

// The JSON body of every error. The spec names the text field `error` in one place and `message`
// in another, so both carry the same text.
export const errorSchema = z
  .object({
    error: z.string().describe("What went wrong, for people"),
    code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]).describe("Stable, for programs"),
    message: z.string().describe("The same text as `error`"),
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe("One entry per invalid field"),
    supportedForms: z
      .array(z.string())
      .optional()
      .describe("With edit_not_understood: the instruction forms the built-in editor understands"),
  })
  .meta({ id: "Error" });

/** Error responses every authenticated route may give, plus any route-specific ones. */
export function errorResponses(...extra: number[]) {
  const statuses = [400, 401, 403, 429, 500, ...extra];
  return Object.fromEntries(statuses.map((s) => [s, errorSchema]));
}
