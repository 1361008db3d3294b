import { AppError } from "../errors.ts";
import type { Principal } from "./actor.ts";

// What an OAuth token may do. API keys and web sessions carry all of their user's rights (their
// principal has no scope set); an OAuth token carries the scopes its user consented to. Roles still
// apply on top: a viewer's token with presentations:write still cannot edit.

export const SCOPES = {
  "presentations:read": "Read your presentations, templates and themes, and export decks to PPTX or PDF",
  "presentations:write": "Generate and edit presentations, and manage webhooks",
  "entities:read": "Search and read your CRM records (accounts, contacts, deals, notes)",
  "entities:write": "Create, update and delete CRM records",
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

export function hasScope(principal: Principal, scope: Scope): boolean {
  return !principal.scopes || principal.scopes.has(scope);
}

/** 403 insufficient_scope naming the scope the caller lacks. */
export const insufficientScope = (scope: Scope) =>
  new AppError(
    "insufficient_scope",
    `This token lacks the ${scope} scope; authorize the app again and allow it`,
  );
