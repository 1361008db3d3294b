import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { TEST_EMBEDDINGS_DIR } from "./setup-embeddings.ts";

// Runs the real `decksmith` binary, as a user would.

export const BIN = path.resolve("bin/decksmith.js");

export type CliResult = { code: number | null; stdout: string; stderr: string };

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runNodeScript(BIN, args, env);
}

/** Runs a Node script to its end, with stdout and stderr collected. */
export function runNodeScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export type RunningServer = { child: ChildProcess; output: () => string; stop: () => Promise<number | null> };

/** Starts `decksmith serve` and resolves once it prints that it is ready. */
export function startServer(
  env: Record<string, string>,
  args: string[] = [],
  timeoutMs = 30_000,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "serve", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(
      () => reject(new Error(`server not ready in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      output += d;
      const ready = /Decksmith ready at|"status":"ready"/.test(output);
      if (ready && (!/First run/.test(output) || /curl .*\n/.test(output))) {
        clearTimeout(timer);
        resolve({
          child,
          output: () => output,
          stop: () =>
            new Promise((done) => {
              // Exited, or killed by a signal (then exitCode stays null): nothing to wait for.
              if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
              child.once("exit", (code) => done(code));
              child.kill("SIGTERM");
            }),
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** The demo account a first `serve --json` printed, as an HTTP client of that server. */
export function demoClient(server: RunningServer, port: number) {
  const line = server
    .output()
    .split("\n")
    .find((l) => l.includes('"status":"ready"'));
  const { demo } = JSON.parse(line ?? "{}");
  if (!demo) throw new Error(`no demo account in the server's output:\n${server.output()}`);
  const base = `http://127.0.0.1:${port}`;
  const headers = {
    authorization: `Bearer ${demo.apiKey}`,
    "x-workspace-id": demo.workspaceId,
    "content-type": "application/json",
  };
  const getDeck = async (id: string) => (await fetch(`${base}/v1/presentations/${id}`, { headers })).json();
  return {
    base,
    headers,
    getDeck,
    status: async (id: string) => (await getDeck(id)).status as string,
    /** POST /generate with Prefer: respond-async: the HTTP status and the presentation id. */
    async generateAsync(body: object) {
      const res = await fetch(`${base}/v1/presentations/generate`, {
        method: "POST",
        headers: { ...headers, prefer: "respond-async" },
        body: JSON.stringify(body),
      });
      return { status: res.status, presentationId: (await res.json()).presentationId as string };
    },
  };
}

/** Data directories and the servers one suite starts on them, all stopped and removed after it. */
export function serverSandbox() {
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const dataDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-e2e-"));
    dirs.push(dir);
    return dir;
  };
  return {
    /** A quiet server's settings on a fresh data directory, with a port when it will listen. */
    env(port?: number): Record<string, string> {
      return {
        DATA_DIR: dataDir(),
        LOG_LEVEL: "warn",
        EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_DIR,
        ...(port ? { PORT: String(port) } : {}),
      };
    },
    async start(env: Record<string, string>, args: string[] = []): Promise<RunningServer> {
      const server = await startServer(env, args);
      servers.push(server);
      return server;
    },
  };
}
