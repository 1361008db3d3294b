import type { Plan, Role } from "../storage/schema.ts";
import type { Scope } from "./scopes.ts";

/** Who is calling, before a workspace is chosen. */
export type Principal = {
  userId: string;
  via: "api_key" | "oauth" | "session";
  apiKeyId?: string;
  /** OAuth tokens only: what the user consented to. Absent means all of the user's rights. */
  scopes?: ReadonlySet<Scope>;
  /** OAuth tokens only: the workspaces the user chose when consenting. */
  workspaceIds?: ReadonlySet<string>;
};

/** Who is calling, inside one workspace: what every workspace service takes. */
export type Actor = Principal & { workspaceId: string; role: Role; plan: Plan };

export const planHasApiAccess = (plan: Plan) => plan === "pro" || plan === "enterprise";

const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
export const roleAtLeast = (role: Role, needed: Role) => rank[role] >= rank[needed];
