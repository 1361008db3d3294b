import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirBusyError, lockDataDir } from "./data-dir-lock.ts";

describe("data directory lock", () => {
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-lock-"));

  it("refuses a directory held by another live process", async () => {
    const d = dir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
    try {
      fs.writeFileSync(path.join(d, "decksmith.lock"), String(other.pid));
      expect(() => lockDataDir(d)).toThrow(DataDirBusyError);
      expect(() => lockDataDir(d)).toThrow(`pid ${other.pid}`);
    } finally {
      other.kill();
    }
  });

  it("takes over a lock left by a dead process, and releases it", () => {
    const d = dir();
    fs.writeFileSync(path.join(d, "decksmith.lock"), "999999999");
    const release = lockDataDir(d);
    expect(fs.readFileSync(path.join(d, "decksmith.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(d, "decksmith.lock"))).toBe(false);
  });
});
