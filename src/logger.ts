import { pino } from "pino";

// One structured logger (JSON lines) for the HTTP server, workers and services alike.
// Credentials never reach it: these paths are redacted wherever they appear.

export type Logger = pino.Logger;

/** On stdout, or `toStderr` for commands whose stdout is a protocol (decksmith mcp). */
export function createLogger(level: string, options: { toStderr?: boolean } = {}): Logger {
  return pino(
    {
      level,
      redact: [
        "req.headers.authorization",
        "req.headers.cookie",
        "res.headers['set-cookie']",
        "*.apiKey",
        "*.password",
      ],
    },
    options.toStderr ? pino.destination(2) : undefined,
  );
}
