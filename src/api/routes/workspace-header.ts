import { z } from "zod";

/** The header every workspace endpoint requires; other headers pass through untouched. */
export const workspaceHeaders = z.looseObject({
  "x-workspace-id": z
    .string({ message: "is required; get one from GET /v1/workspaces" })
    .describe("Workspace id from GET /v1/workspaces"),
});
