import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// The server's own secret: it signs download links and encrypts webhook signing secrets. Every
// process serving one database needs the same one: set SIGNING_SECRET when there is more than one.

/** The signing secret: SIGNING_SECRET when set, else one generated into DATA_DIR on first use. */
export function loadSigningSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, "signing-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("hex");
    try {
      fs.writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      return fs.readFileSync(file, "utf8").trim(); // another process wrote it first
    }
  }
}
