import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";

// Server-Sent Events for a presentation's event log: what happened since Last-Event-ID (or from
// the start), then each event as it is published, by any process. A comment every 15 s keeps
// proxies from closing a quiet stream; the server ends every stream when it shuts down.

const PING_MS = 15_000;

/** Last-Event-ID from the header (EventSource reconnects) or the lastEventId query parameter. */
export function lastEventId(request: FastifyRequest): number {
  const raw =
    request.headers["last-event-id"] ?? (request.query as Record<string, unknown> | undefined)?.lastEventId;
  if (raw === undefined || raw === "") return 0;
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 0) {
    throw new AppError(
      "invalid_request",
      "Last-Event-ID must be an event id from this stream (a whole number)",
      [{ path: "headers.last-event-id", message: "must be a whole number" }],
    );
  }
  return id;
}

export function eventStreams(app: FastifyInstance, bus: EventBus) {
  const open = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const end of open) end();
  });

  return async function stream(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: { workspaceId: string; presentationId: string; afterId: number },
  ): Promise<void> {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write("retry: 2000\n\n");
    const unsubscribe = await bus.subscribe(scope.workspaceId, scope.presentationId, scope.afterId, (e) => {
      res.write(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify({ ...e.data, at: e.createdAt })}\n\n`);
    });
    const ping = setInterval(() => res.write(": ping\n\n"), PING_MS);
    const end = () => {
      clearInterval(ping);
      unsubscribe();
      open.delete(end);
      if (!res.writableEnded) res.end();
    };
    open.add(end);
    request.raw.on("close", end);
  };
}
