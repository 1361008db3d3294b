// A minimal Server-Sent Events client over fetch, for tests: collects events until one matches.

export type SseEvent = { id?: string; event: string; data: Record<string, unknown> };

export async function collectEvents(
  url: string,
  headers: Record<string, string>,
  until: (e: SseEvent, all: SseEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<SseEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: SseEvent[] = [];
  try {
    const res = await fetch(url, { headers, signal: controller.signal });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        const fields = Object.fromEntries(
          block
            .split("\n")
            .filter((l) => l && !l.startsWith(":"))
            .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]),
        );
        if (!fields.event) continue;
        const e = { id: fields.id, event: fields.event, data: JSON.parse(fields.data ?? "{}") };
        events.push(e);
        if (until(e, events)) return events;
      }
    }
    return events;
  } catch (err) {
    if (controller.signal.aborted)
      throw new Error(
        `timed out after ${timeoutMs} ms with events: ${events.map((e) => e.event).join(", ")}`,
      );
    throw err;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
