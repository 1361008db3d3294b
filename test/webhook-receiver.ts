import http from "node:http";
import type { AddressInfo } from "node:net";

// A local HTTP endpoint that receives webhooks: it records each request and answers as a test
// scripts (a status, or a delay longer than the sender waits).

export type Received = { headers: Record<string, string>; body: string; at: number };

export async function startReceiver(
  answer: (n: number) => { status?: number; delayMs?: number } = () => ({}),
) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const n = received.length;
      received.push({ headers: req.headers as Record<string, string>, body, at: performance.now() });
      const a = answer(n);
      if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
      if (!res.destroyed) res.writeHead(a.status ?? 200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
