import { generateText, type LanguageModel, type ModelMessage } from "ai";
import type { z } from "zod";
import { AppError } from "../../errors.ts";
import { addUsage, type LlmUsage } from "./usage.ts";

// Structured output that works with any model, JSON mode or not: the prompt asks for one JSON
// value, the answer is parsed leniently (code fences, prose around it) and validated with zod; an
// answer that fails is sent back with the exact problems, a bounded number of times.

export type LlmCall = {
  model: LanguageModel;
  timeoutMs: number;
  signal: AbortSignal;
  usage: LlmUsage;
};

/** The first JSON object or array in a text, without code fences or prose around it. */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const body = (fenced ?? text).trim();
  const start = body.search(/[[{]/);
  if (start < 0) throw new SyntaxError("the answer holds no JSON object");
  const open = body[start] as "{" | "[";
  const close = open === "{" ? "}" : "]";
  const end = body.lastIndexOf(close);
  if (end <= start) throw new SyntaxError("the JSON is cut off");
  return JSON.parse(body.slice(start, end + 1));
}

/** One model call with this call's time limit and the generation's abort signal. */
export async function callModel(call: LlmCall, options: Omit<Parameters<typeof generateText>[0], "model">) {
  const signal = AbortSignal.any([call.signal, AbortSignal.timeout(call.timeoutMs)]);
  try {
    const result = await generateText({
      ...options,
      model: call.model,
      abortSignal: signal,
      maxRetries: 1,
    } as Parameters<typeof generateText>[0]);
    addUsage(call.usage, result.totalUsage, result.steps.length || 1);
    return result;
  } catch (err) {
    call.usage.calls += 1;
    if (signal.aborted && !call.signal.aborted) {
      throw new AppError(
        "upstream_unavailable",
        `The language model did not answer within ${Math.round(call.timeoutMs / 1000)} s`,
      );
    }
    if (call.signal.aborted) throw err;
    throw new AppError(
      "upstream_unavailable",
      `The language model failed: ${(err as Error).message.slice(0, 300)}`,
    );
  }
}

export async function generateJson<S extends z.ZodType>(
  call: LlmCall,
  request: {
    system: string;
    prompt: string;
    schema: S;
    what: string;
    maxRepairs?: number;
    check?: (value: z.output<S>) => string | undefined;
  },
): Promise<z.output<S>> {
  const messages: ModelMessage[] = [{ role: "user", content: request.prompt }];
  const attempts = 1 + (request.maxRepairs ?? 2);
  let problem = "";
  for (let attempt = 0; attempt < attempts; attempt++) {
    const result = await callModel(call, { system: request.system, messages });
    try {
      const parsed = request.schema.safeParse(extractJson(result.text));
      if (!parsed.success) {
        problem = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
      } else {
        problem = request.check?.(parsed.data) ?? "";
        if (!problem) return parsed.data;
      }
    } catch (err) {
      problem = `it is not valid JSON (${(err as Error).message})`;
    }
    messages.push(
      { role: "assistant", content: result.text },
      {
        role: "user",
        content: `That answer cannot be used: ${problem}. Answer again with only the corrected JSON.`,
      },
    );
  }
  throw new AppError(
    "upstream_unavailable",
    `The language model gave no valid ${request.what} after ${attempts} tries: ${problem.slice(0, 300)}`,
  );
}
