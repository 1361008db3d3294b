import os from "node:os";
import path from "node:path";
import { z } from "zod";

// The only reader of process.env. Everything else receives a typed Config.

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(0).default(30),
  EMBEDDINGS_PROVIDER: z.enum(["builtin", "openai-compatible"]).default("builtin"),
  EMBEDDINGS_BASE_URL: z.url().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_CACHE_DIR: z.string().min(1).optional(),
  SIGNING_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  LLM_PROVIDER: z.enum(["openai", "anthropic", "openai-compatible"]).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_BASE_URL: z.url().optional(),
  LLM_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(60),
  LLM_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  LLM_MAX_STEPS: z.coerce.number().int().min(2).max(50).default(12),
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false"),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(1).max(120).default(10),
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(13),
  GENERATE_WAIT_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
  GENERATION_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  RENDER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 7),
});

export type Config = {
  http: { port: number; host: string; publicUrl: string; bodyLimit: number };
  storage: { dataDir: string; databaseUrl?: string };
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** Requests per minute per API key (or per client address without one); 0 turns limiting off. */
  rateLimitPerMinute: number;
  /** OAuth dynamic client registrations allowed per client address per hour (0: no limit). */
  oauthRegistrationsPerHour: number;
  sessionTtlMs: number;
  generation: {
    /** How long POST /v1/presentations/generate waits before answering 202. */
    waitMs: number;
    timeoutMs: number;
    leaseMs: number;
    maxAttempts: number;
    /** Generations one worker process runs at once. */
    concurrency: number;
  };
  /** A language model for generation and editing; without one, the built-in composer and editor. */
  llm?: {
    provider: "openai" | "anthropic" | "openai-compatible";
    model: string;
    apiKey?: string;
    baseUrl?: string;
    /** Per call. */
    timeoutMs: number;
    /** Slides written at once. */
    concurrency: number;
    /** Tool-calling steps an edit may take. */
    maxSteps: number;
  };
  webhooks: { allowPrivate: boolean; timeoutMs: number; retryDelaySeconds: number; maxAttempts: number };
  /** Worker threads that render exports. */
  renderThreads: number;
  /** Signs download links; generated into DATA_DIR when unset. */
  signingSecret?: string;
  embeddings:
    | { provider: "builtin"; cacheDir: string }
    | { provider: "openai-compatible"; baseUrl: string; model: string; apiKey?: string };
};

/** Render threads by default: one core stays with the event loop on machines with more than one. */
function defaultRenderThreads(): number {
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.EMBEDDINGS_PROVIDER === "openai-compatible" && (!e.EMBEDDINGS_BASE_URL || !e.EMBEDDINGS_MODEL)) {
    throw new ConfigError(
      "Invalid configuration:\n  EMBEDDINGS_PROVIDER=openai-compatible needs EMBEDDINGS_BASE_URL (e.g. https://api.openai.com/v1) and EMBEDDINGS_MODEL",
    );
  }
  if (e.LLM_PROVIDER && !e.LLM_MODEL) {
    throw new ConfigError(
      "Invalid configuration:\n  LLM_PROVIDER needs LLM_MODEL (e.g. gpt-4o-mini, claude-sonnet-4-5, llama3.1)",
    );
  }
  if (e.LLM_PROVIDER === "openai-compatible" && !e.LLM_BASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  LLM_PROVIDER=openai-compatible needs LLM_BASE_URL (e.g. http://localhost:11434/v1 for Ollama)",
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const displayHost = e.HOST === "0.0.0.0" || e.HOST === "::" ? "localhost" : e.HOST;
  return {
    http: {
      port: e.PORT,
      host: e.HOST,
      publicUrl: (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, ""),
      bodyLimit: e.BODY_LIMIT_BYTES,
    },
    storage: { dataDir, databaseUrl: e.DATABASE_URL },
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    oauthRegistrationsPerHour: e.OAUTH_REGISTRATIONS_PER_HOUR,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    renderThreads: e.RENDER_THREADS ?? defaultRenderThreads(),
    llm: e.LLM_PROVIDER
      ? {
          provider: e.LLM_PROVIDER,
          model: e.LLM_MODEL as string,
          apiKey: e.LLM_API_KEY,
          baseUrl: e.LLM_BASE_URL?.replace(/\/+$/, ""),
          timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000,
          concurrency: e.LLM_CONCURRENCY,
          maxSteps: e.LLM_MAX_STEPS,
        }
      : undefined,
    webhooks: {
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === "true",
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      retryDelaySeconds: e.WEBHOOK_RETRY_DELAY_SECONDS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
    },
    generation: {
      waitMs: e.GENERATE_WAIT_SECONDS * 1000,
      timeoutMs: e.GENERATION_TIMEOUT_SECONDS * 1000,
      leaseMs: 30_000,
      maxAttempts: 2,
      concurrency: e.WORKER_CONCURRENCY,
    },
    signingSecret: e.SIGNING_SECRET,
    embeddings:
      e.EMBEDDINGS_PROVIDER === "openai-compatible"
        ? {
            provider: "openai-compatible",
            baseUrl: (e.EMBEDDINGS_BASE_URL as string).replace(/\/+$/, ""),
            model: e.EMBEDDINGS_MODEL as string,
            apiKey: e.EMBEDDINGS_API_KEY,
          }
        : {
            provider: "builtin",
            cacheDir: path.resolve(e.EMBEDDINGS_CACHE_DIR ?? path.join(dataDir, "embeddings")),
          },
  };
}
