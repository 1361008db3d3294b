import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Command } from "commander";
import { loadConfig } from "../config.ts";
import { createContainer } from "../container.ts";
import { AppError } from "../errors.ts";
import { startWorker } from "../jobs/worker.ts";
import { createLogger } from "../logger.ts";
import { createMcpServer } from "../mcp/mcp-server.ts";
import { actorResolver } from "../mcp/tools.ts";
import { printFailure } from "./output.ts";

// `decksmith mcp`: the MCP server over stdio, for assistants that start a local process (Claude
// Desktop, Claude Code, Cursor). It acts as the user of DECKSMITH_API_KEY. stdout carries the
// protocol, so everything else goes to stderr.

export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description(
      "Serve MCP over stdio as the user of DECKSMITH_API_KEY (same data settings as serve: DATA_DIR or DATABASE_URL)",
    )
    .action(async () => {
      try {
        const key = process.env.DECKSMITH_API_KEY;
        if (!key)
          throw new AppError(
            "unauthorized",
            "Set DECKSMITH_API_KEY to an API key (ak_…); create one under Account → API keys",
          );
        const config = loadConfig();
        const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel, {
          toStderr: true,
        });
        const c = await createContainer(config, undefined, {
          logger,
          log: (line) => process.stderr.write(`${line}\n`),
        });
        const principal = await c.apiKeys.authenticate(key);
        if (!principal)
          throw new AppError(
            "unauthorized",
            "DECKSMITH_API_KEY is not a valid API key (revoked, or from another server)",
          );
        // On the embedded database this is the only process: it runs the generation jobs too.
        const worker =
          c.database.kind === "pglite"
            ? await startWorker(c, { concurrency: config.generation.concurrency })
            : undefined;
        const server = createMcpServer({ c, principal, actor: actorResolver(c, principal) }, (err) =>
          logger.error({ err }, "MCP tool failed"),
        );
        const transport = new StdioServerTransport();
        transport.onclose = () => {
          worker?.stop();
          void c.close().then(() => process.exit(0));
        };
        await server.connect(transport);
        process.stderr.write(`Decksmith MCP server on stdio (${c.database.kind}), as ${principal.userId}\n`);
      } catch (err) {
        printFailure({ json: false }, err);
        process.exit(1);
      }
    });
}
