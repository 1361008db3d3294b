import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// A throwaway PostgreSQL cluster for tests: initdb + pg_ctl on a free loopback port, owned by the
// `postgres` user when running as root (initdb refuses root). Returns undefined, with the reason,
// where the server binaries are not installed.

export type Cluster = { url: (database: string) => string; stop: () => void };

export function findPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, "bin");
    if (fs.existsSync(path.join(bin, "initdb")) && fs.existsSync(path.join(bin, "pg_ctl"))) return bin;
  }
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startCluster(): Promise<Cluster | { skipped: string }> {
  const bin = findPostgresBin();
  if (!bin)
    return {
      skipped: "PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)",
    };
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync("id", ["postgres"]).status !== 0)
    return { skipped: "running as root and there is no postgres user to own the cluster" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-pg-"));
  fs.chmodSync(dir, 0o755);
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", cmd, ...args], { stdio: "pipe" })
      : execFileSync(cmd, args, { stdio: "pipe" });
  const data = path.join(dir, "data");
  run(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run(path.join(bin, "pg_ctl"), ["-D", data, "-o", opts, "-l", path.join(dir, "log"), "-w", "start"]);
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => {
      try {
        run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
