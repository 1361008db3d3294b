import { createHmac } from "node:crypto";
import { safeEqual } from "../auth/secrets.ts";
import { AppError } from "../errors.ts";

// Download links are HMAC-signed: the blob key, the file name and the expiry are in the URL and
// the signature covers all three, so a link cannot be altered or extended, and needs no lookup.

export const DOWNLOAD_TTL_MS = 14 * 3600_000;

export type SignedDownload = { key: string; filename: string; expires: number };

export function createDownloadSigner(secret: string, now: () => number = Date.now) {
  const sign = (d: SignedDownload) =>
    createHmac("sha256", secret).update(`${d.key}\n${d.filename}\n${d.expires}`).digest("base64url");
  return {
    /** Query string for a link valid for 14 hours. */
    sign(key: string, filename: string): { query: string; expiresAt: Date } {
      const expires = now() + DOWNLOAD_TTL_MS;
      const params = new URLSearchParams({
        key,
        name: filename,
        expires: String(expires),
        sig: sign({ key, filename, expires }),
      });
      return { query: params.toString(), expiresAt: new Date(expires) };
    },
    /** The download a query grants, or a 403 saying why not. */
    verify(query: Record<string, unknown>): SignedDownload {
      const key = String(query.key ?? "");
      const filename = String(query.name ?? "");
      const expires = Number(query.expires);
      const sig = String(query.sig ?? "");
      if (
        !key ||
        !filename ||
        !Number.isFinite(expires) ||
        !safeEqual(sig, sign({ key, filename, expires }))
      ) {
        throw new AppError(
          "forbidden",
          "This download link is not valid; export the presentation again for a new one",
        );
      }
      if (expires < now())
        throw new AppError(
          "forbidden",
          "This download link has expired; export the presentation again for a new one",
        );
      return { key, filename, expires };
    },
  };
}

export type DownloadSigner = ReturnType<typeof createDownloadSigner>;
