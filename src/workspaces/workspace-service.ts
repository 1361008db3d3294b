import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { type Actor, type Principal, planHasApiAccess, roleAtLeast } from "../auth/actor.ts";
import { AppError, notFound, parseInput } from "../errors.ts";
import { ID_PATTERN, newId, normalizeId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import { createReadCache, type ReadCache } from "../storage/read-cache.ts";
import {
  memberships,
  type Plan,
  plans,
  presentations,
  type Role,
  roles,
  workspaces,
} from "../storage/schema.ts";

export const createWorkspaceInput = z.object({
  name: z.string().trim().min(1, "is required").max(200),
  plan: z.enum(plans).default("pro"),
});

export type WorkspaceSummary = {
  id: string;
  name: string;
  plan: Plan;
  role: Role;
  apiAccess: boolean;
  createdAt: Date;
};

type Access = { role: Role; plan: Plan };

export function createWorkspaceService(deps: { db: Db; cache?: ReadCache<Access> }) {
  const { db } = deps;
  // Keyed by user and workspace; only memberships are cached, never misses.
  const cache = deps.cache ?? createReadCache<Access>({ enabled: false });

  return {
    /** Creates a workspace and makes `ownerUserId` its owner, in one transaction. */
    async create(input: z.input<typeof createWorkspaceInput>, ownerUserId: string) {
      const { name, plan } = parseInput(createWorkspaceInput, input);
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(workspaces).values({ id: newId(), name, plan }).returning();
        if (!row) throw new AppError("internal_error", "Could not create the workspace");
        await tx.insert(memberships).values({ workspaceId: row.id, userId: ownerUserId, role: "owner" });
        return row;
      });
    },

    async addMember(workspaceId: string, userId: string, role: Role) {
      const validRole = parseInput(z.enum(roles), role);
      const id = normalizeId(workspaceId);
      const [workspace] = await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.id, id));
      if (!workspace) throw notFound(`Workspace ${workspaceId}`);
      await db
        .insert(memberships)
        .values({ workspaceId: id, userId, role: validRole })
        .onConflictDoUpdate({
          target: [memberships.workspaceId, memberships.userId],
          set: { role: validRole },
        });
      cache.clear();
      return { workspaceId: id, userId, role: validRole };
    },

    /** Removes a member; their API keys and OAuth tokens stop reaching the workspace at once. */
    async removeMember(workspaceId: string, userId: string) {
      const id = normalizeId(workspaceId);
      const [row] = await db
        .delete(memberships)
        .where(and(eq(memberships.workspaceId, id), eq(memberships.userId, userId)))
        .returning({ role: memberships.role });
      cache.clear();
      if (!row) throw notFound(`Member ${userId} of workspace ${workspaceId}`);
      return { workspaceId: id, userId, removed: true };
    },

    /**
     * The workspaces this caller may reach through the API: member, plan with API access, and for
     * an OAuth token one of the workspaces chosen at consent.
     */
    async listForApi(principal: Pick<Principal, "userId" | "workspaceIds">): Promise<WorkspaceSummary[]> {
      const rows = await db
        .select({
          id: workspaces.id,
          name: workspaces.name,
          plan: workspaces.plan,
          role: memberships.role,
          createdAt: workspaces.createdAt,
        })
        .from(memberships)
        .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
        .where(
          and(
            eq(memberships.userId, principal.userId),
            inArray(workspaces.plan, plans.filter(planHasApiAccess)),
          ),
        )
        .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
      const chosen = principal.workspaceIds;
      return rows.filter((r) => !chosen || chosen.has(r.id)).map((r) => ({ ...r, apiAccess: true }));
    },

    /**
     * The caller as a member of the workspace that holds a presentation, for web pages that are
     * reached by the presentation's id alone. Any member may view, whatever the plan (the plan
     * gates the API, not the dashboard); a deck outside the caller's workspaces is not found.
     */
    async actorForPresentation(principal: Principal, presentationId: string): Promise<Actor> {
      const id = ID_PATTERN.test(presentationId) ? normalizeId(presentationId) : undefined;
      const [row] = id
        ? await db
            .select({ workspaceId: presentations.workspaceId, role: memberships.role, plan: workspaces.plan })
            .from(presentations)
            .innerJoin(
              memberships,
              and(
                eq(memberships.workspaceId, presentations.workspaceId),
                eq(memberships.userId, principal.userId),
              ),
            )
            .innerJoin(workspaces, eq(workspaces.id, presentations.workspaceId))
            .where(eq(presentations.id, id))
        : [];
      if (!row) throw notFound(`Presentation ${presentationId}`);
      return { ...principal, ...row };
    },

    /** An owner's Actor for operator commands (CLI), which act on a workspace by its id. */
    async operatorActor(workspaceId: string): Promise<Actor> {
      const id = normalizeId(workspaceId);
      const [row] = await db
        .select({ userId: memberships.userId, plan: workspaces.plan })
        .from(workspaces)
        .innerJoin(
          memberships,
          and(eq(memberships.workspaceId, workspaces.id), eq(memberships.role, "owner")),
        )
        .where(eq(workspaces.id, id))
        .limit(1);
      if (!row) throw notFound(`Workspace ${workspaceId}`);
      return { userId: row.userId, via: "session", workspaceId: id, role: "owner", plan: row.plan };
    },

    /**
     * Resolves the caller inside the workspace named by X-Workspace-Id. A workspace the caller is
     * not a member of answers exactly like one that does not exist, so ids cannot be probed.
     */
    async resolveActor(principal: Principal, workspaceId: string | undefined): Promise<Actor> {
      if (!workspaceId) {
        throw new AppError("invalid_request", "The X-Workspace-Id header is required", [
          { path: "headers.x-workspace-id", message: "is required; get one from GET /v1/workspaces" },
        ]);
      }
      if (!ID_PATTERN.test(workspaceId)) {
        throw new AppError("invalid_request", "X-Workspace-Id must be 24 hexadecimal characters", [
          { path: "headers.x-workspace-id", message: "must be 24 hexadecimal characters" },
        ]);
      }
      const id = normalizeId(workspaceId);
      // An OAuth token reaches only the workspaces chosen at consent; others look like strangers'.
      if (principal.workspaceIds && !principal.workspaceIds.has(id))
        throw notFound(`Workspace ${workspaceId}`);
      const cacheKey = `${principal.userId}:${id}`;
      let row = cache.get(cacheKey);
      if (!row) {
        [row] = await db
          .select({ role: memberships.role, plan: workspaces.plan })
          .from(memberships)
          .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
          .where(and(eq(memberships.workspaceId, id), eq(memberships.userId, principal.userId)));
        if (!row) throw notFound(`Workspace ${workspaceId}`);
        cache.set(cacheKey, row);
      }
      if (!planHasApiAccess(row.plan)) {
        throw new AppError(
          "plan_required",
          `The ${row.plan} plan does not include API access; upgrade the workspace to pro or enterprise`,
        );
      }
      return { ...principal, workspaceId: id, role: row.role, plan: row.plan };
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;

/** Throws 403 unless the actor's role is at least `needed`. */
export function requireRole(actor: Actor, needed: Role, action: string): void {
  if (!roleAtLeast(actor.role, needed)) {
    throw new AppError(
      "forbidden",
      `Your role (${actor.role}) may not ${action}; it needs ${needed} or above`,
    );
  }
}
