import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// Secrets that must be read back (webhook signing secrets, to sign every delivery; OAuth client
// secrets, to check a client's) cannot be hashed like API keys. They are stored encrypted (AES-256-GCM) with a key derived from the server's signing
// secret, which never touches the database: a copy of the database alone reveals no secret.

export function createSecretBox(serverSecret: string, purpose = "webhook secrets") {
  // One key per purpose, so a value sealed for one use cannot be opened as another.
  const key = createHash("sha256").update(`decksmith ${purpose}\n${serverSecret}`).digest();
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
    },
    open(sealed: string): string {
      const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
      if (!iv || !tag || !body) throw new Error("malformed sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
