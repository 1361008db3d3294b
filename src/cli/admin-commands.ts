import type { Command } from "commander";
import { loadConfig } from "../config.ts";
import { type Container, createContainer } from "../container.ts";
import { printFailure, printResult } from "./output.ts";

export type Options = Record<string, string | boolean | undefined> & { json?: boolean };
type Action = (
  c: Container,
  o: Options,
  args: string[],
) => Promise<{ result: Record<string, unknown>; text: string }>;

/** Runs one command against the configured database, then closes it. */
export function withContainer(action: Action) {
  return async (...commanderArgs: unknown[]) => {
    // commander passes positional arguments first, then the options object, then the command.
    const options = commanderArgs[commanderArgs.length - 2] as Options;
    const args = commanderArgs.slice(0, -2) as string[];
    const printer = { json: Boolean(options.json) };
    let container: Container | undefined;
    try {
      container = await createContainer(loadConfig(), undefined, {
        log: (line) => process.stderr.write(`${line}\n`),
      });
      const { result, text } = await action(container, options, args);
      printResult(printer, result, text);
    } catch (err) {
      printFailure(printer, err);
      process.exitCode = 1;
    } finally {
      await container?.close();
    }
  };
}

export const str = (o: Options, key: string) => String(o[key] ?? "");
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function registerAdminCommands(program: Command): void {
  program
    .command("migrate")
    .description("Apply database migrations (serve also does this at start)")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c) => ({
        result: { migrated: true, database: c.database.kind },
        text: `Database (${c.database.kind}) is up to date.`,
      })),
    );

  const users = program.command("users").description("Manage users");
  users
    .command("create")
    .description("Create a user who can sign in to the web pages")
    .requiredOption("--email <email>", "sign-in email")
    .requiredOption("--password <password>", "at least 8 characters")
    .option("--name <name>", "display name")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const user = await c.users.create({
          email: str(o, "email"),
          password: str(o, "password"),
          name: o.name as string | undefined,
        });
        return {
          result: { id: user.id, email: user.email, name: user.name },
          text: `Created user ${user.email} (${user.id})`,
        };
      }),
    );

  const workspaces = program.command("workspaces").description("Manage workspaces");
  workspaces
    .command("create")
    .description("Create a workspace owned by an existing user")
    .requiredOption("--name <name>", "workspace name")
    .requiredOption("--owner <email>", "email of the owner")
    .option("--plan <plan>", "free | pro | enterprise (API access on pro and enterprise)", "pro")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const owner = await c.users.getByEmail(str(o, "owner"));
        const ws = await c.workspaces.create(
          { name: str(o, "name"), plan: str(o, "plan") as "pro" },
          owner.id,
        );
        return {
          result: { id: ws.id, name: ws.name, plan: ws.plan },
          text: `Created workspace ${ws.name} (${ws.plan})\nid: ${ws.id}`,
        };
      }),
    );

  const members = program.command("members").description("Manage workspace members");
  members
    .command("add")
    .description("Add a user to a workspace, or change their role")
    .requiredOption("--workspace <id>", "workspace id")
    .requiredOption("--email <email>", "the user's email")
    .requiredOption("--role <role>", "owner | admin | editor | viewer")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const user = await c.users.getByEmail(str(o, "email"));
        const m = await c.workspaces.addMember(str(o, "workspace"), user.id, str(o, "role") as "viewer");
        return {
          result: { ...m, email: user.email },
          text: `${user.email} is now ${m.role} of workspace ${m.workspaceId}`,
        };
      }),
    );
  members
    .command("remove")
    .description("Remove a user from a workspace; their keys and OAuth tokens stop reaching it at once")
    .requiredOption("--workspace <id>", "workspace id")
    .requiredOption("--email <email>", "the user's email")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const user = await c.users.getByEmail(str(o, "email"));
        const m = await c.workspaces.removeMember(str(o, "workspace"), user.id);
        return {
          result: { ...m, email: user.email },
          text: `${user.email} is no longer a member of workspace ${m.workspaceId}`,
        };
      }),
    );

  const keys = program.command("keys").description("Manage API keys");
  keys
    .command("create")
    .description("Create an API key for a user; the key is printed once")
    .requiredOption("--email <email>", "the user's email")
    .requiredOption("--name <name>", "a name to recognise the key by")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const user = await c.users.getByEmail(str(o, "email"));
        const k = await c.apiKeys.create(user.id, str(o, "name"));
        return {
          result: { id: k.id, key: k.key, name: k.name, prefix: k.prefix },
          text: `Created API key "${k.name}" (id ${k.id}). It is shown only now:\n${k.key}`,
        };
      }),
    );
  keys
    .command("list")
    .description("List a user's API keys (never the keys themselves)")
    .requiredOption("--email <email>", "the user's email")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const user = await c.users.getByEmail(str(o, "email"));
        const list = await c.apiKeys.list(user.id);
        const rows = list.map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          createdAt: iso(k.createdAt),
          lastUsedAt: iso(k.lastUsedAt),
          revokedAt: iso(k.revokedAt),
        }));
        const text = rows.length
          ? rows
              .map(
                (k) =>
                  `${k.id}  ${k.prefix}…  ${k.name}  created ${k.createdAt}  last used ${k.lastUsedAt ?? "never"}${k.revokedAt ? "  REVOKED" : ""}`,
              )
              .join("\n")
          : `${user.email} has no API keys.`;
        return { result: { keys: rows }, text };
      }),
    );
  keys
    .command("revoke")
    .description("Revoke an API key at once")
    .requiredOption("--id <id>", "the key's id (from keys list)")
    .option("--json", "print one JSON object")
    .action(
      withContainer(async (c, o) => {
        const k = await c.apiKeys.revoke(str(o, "id"));
        return {
          result: { id: k.id, revokedAt: iso(k.revokedAt) },
          text: `Revoked API key ${k.id} (${k.name}).`,
        };
      }),
    );
}
