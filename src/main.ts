import { Command } from "commander";
import { registerAdminCommands } from "./cli/admin-commands.ts";
import { registerEntityCommands } from "./cli/entity-commands.ts";
import { registerMcpCommand } from "./cli/mcp-command.ts";
import { registerRenderCommand } from "./cli/render-command.ts";
import { registerServe } from "./cli/serve.ts";
import { registerWorkerCommand } from "./cli/worker-command.ts";

const program = new Command()
  .name("decksmith")
  .description("Decksmith: make and edit presentations with AI, grounded in your workspace's data.")
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

registerServe(program);
registerAdminCommands(program);
registerEntityCommands(program);
registerRenderCommand(program);
registerWorkerCommand(program);
registerMcpCommand(program);

await program.parseAsync(process.argv);
