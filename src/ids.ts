import { randomBytes } from "node:crypto";

// Ids are 24 lowercase hex characters like MongoDB ObjectIds: 4 bytes of seconds since the epoch
// (so ids sort roughly by creation time) followed by 8 random bytes.

export const ID_PATTERN = /^[a-f\d]{24}$/i;

export function newId(now = Date.now()): string {
  const time = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, "0");
  return time + randomBytes(8).toString("hex");
}

/** Path ids match case-insensitively; stored ids are lowercase. */
export const normalizeId = (id: string) => id.toLowerCase();
