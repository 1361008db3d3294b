import http from "node:http";
import type { AddressInfo } from "node:net";

// A local HTTP server speaking the OpenAI Chat Completions protocol, for tests and benchmarks: the
// real provider client, over real HTTP, against answers a test scripts. Nothing leaves the machine.

export type ChatMessage = {
  role: string;
  content?: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  tools?: { function: { name: string } }[];
};
export type ChatAnswer = {
  content?: string;
  toolCalls?: { name: string; arguments: object }[];
  delayMs?: number;
  status?: number;
};

export type FakeLlm = {
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
};

export async function startFakeLlm(
  answer: (request: ChatRequest, n: number) => ChatAnswer | Promise<ChatAnswer>,
): Promise<FakeLlm> {
  const requests: ChatRequest[] = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      const a = await answer(request, calls++);
      if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
      if (res.destroyed) return;
      if (a.status && a.status !== 200) {
        res
          .writeHead(a.status, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: a.content ?? "error" } }));
        return;
      }
      const toolCalls = a.toolCalls?.map((t, i) => ({
        id: `call_${calls}_${i}`,
        type: "function",
        function: { name: t.name, arguments: JSON.stringify(t.arguments) },
      }));
      const prompt = JSON.stringify(request.messages).length;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${calls}`,
          object: "chat.completion",
          created: 1_700_000_000,
          model: request.model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: a.content ?? null,
                ...(toolCalls ? { tool_calls: toolCalls } : {}),
              },
              finish_reason: toolCalls ? "tool_calls" : "stop",
            },
          ],
          usage: {
            prompt_tokens: Math.ceil(prompt / 4),
            completion_tokens: Math.ceil((a.content ?? "").length / 4) + 5,
            total_tokens: 0,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request's first user message: what was asked, before any repair round. */
const asked = (r: ChatRequest) => r.messages.find((m) => m.role === "user")?.content ?? "";

/** Placeholders a real model might write for each layout. */
const SLIDES: Record<string, Record<string, string>> = {
  title: { title: "Northwind Health: Account Review", subtitle: "Healthcare · North America" },
  bullets: {
    title: "What changed",
    body: "Support response times slipped\nNew CIO started in August\nRenewal is in January",
  },
  metrics: {
    title: "At a glance",
    metrics: "Open pipeline: $556K | 2 opportunities\nContacts: 4 | in the CRM",
  },
  closing: { title: "Next steps", steps: "Agree a support plan\nBrief the new CIO" },
};

/**
 * Answers Decksmith's generation prompts like a model would: an outline of `slides` slides, each
 * slide's placeholders, the topics. With `malformedFirst`, the first outline answer is broken JSON.
 */
export function deckWriter(options: { slides?: number; malformedFirst?: boolean; delayMs?: number } = {}) {
  let malformed = options.malformedFirst ?? false;
  const layouts = ["title", "metrics", "bullets", "bullets", "closing"];
  return (request: ChatRequest): ChatAnswer => {
    const prompt = asked(request);
    const delayMs = options.delayMs;
    if (/Plan the deck/.test(prompt)) {
      if (malformed) {
        malformed = false;
        return {
          content:
            '```json\n{"name": "Northwind Health: Account Review", "summary": "Where the account stands", "slides": [{"layout": "title", ',
          delayMs,
        };
      }
      const count = Number(/exactly (\d+) slides/.exec(prompt)?.[1] ?? options.slides ?? 5);
      const slides = Array.from({ length: count }, (_, i) => {
        const layout =
          i === 0 ? "title" : i === count - 1 ? "closing" : (layouts[1 + ((i - 1) % 3)] as string);
        return { layout, title: `Slide ${i + 1}`, brief: `Part ${i + 1} of the review` };
      });
      return {
        content: `Here is the plan:\n${JSON.stringify({ name: "Northwind Health: Account Review", summary: "Where the Northwind Health account stands before renewal.", slides })}`,
        delayMs,
      };
    }
    const layout = /Placeholders of the ([\w-]+) layout/.exec(prompt)?.[1];
    if (layout)
      return { content: JSON.stringify({ placeholders: SLIDES[layout] ?? SLIDES.bullets }), delayMs };
    if (/discussion topics/.test(prompt)) {
      return {
        content: JSON.stringify({
          topics: [{ topic: "Support response times", details: "Agree a 2-hour target before renewal." }],
        }),
        delayMs,
      };
    }
    return { content: "I do not understand", delayMs };
  };
}
