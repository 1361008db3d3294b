import { z } from "zod";

/** `limit` (1–100, default 20) and `offset` (≥ 0, default 0): every list endpoint's paging. */
export const paginationSchema = z.object({
  limit: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(100, "must be at most 100")
    .default(20)
    .describe("Maximum number of results, 1 to 100"),
  offset: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .default(0)
    .describe("Number of results to skip"),
});
