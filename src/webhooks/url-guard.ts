import { lookup } from "node:dns/promises";
import net from "node:net";
import { AppError } from "../errors.ts";

// Webhook targets must be public http(s) endpoints: a workspace admin must not be able to make
// the server call its own loopback, the cloud metadata address or the private network behind it.
// Checked when a webhook is created and again before every delivery (DNS can change).

function privateV4(ip: string): boolean {
  const [a = 0, b = 0] = ip.split(".").map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224 // multicast, reserved, broadcast
  );
}

export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return privateV4(ip);
  const v6 = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6)?.[1];
  if (mapped) return privateV4(mapped);
  return v6 === "::" || v6 === "::1" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || /^ff/.test(v6);
}

const refuse = (message: string) =>
  new AppError("invalid_request", `url: ${message}`, [{ path: "url", message }]);

/** The URL, checked; throws 400 naming the problem. */
export async function checkTargetUrl(raw: string, options: { allowPrivate: boolean }): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("is not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw refuse("must start with https:// or http://");
  if (url.username || url.password) throw refuse("must not carry a user name or password");
  if (options.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw refuse(`its host ${host} does not resolve`);
  }
  const blocked = addresses.find(isPrivateAddress);
  if (blocked) {
    throw refuse(
      `${host} is a private, loopback or link-local address (${blocked}); such targets are refused unless the server sets WEBHOOKS_ALLOW_PRIVATE=true`,
    );
  }
  return url;
}
