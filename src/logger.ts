import { pino } from "pino";

// One structured logger (JSON lines on stdout) for the HTTP server, workers and services alike.
// Credentials never reach it: these paths are redacted wherever they appear.

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: [
      "req.headers.authorization",
      "req.headers.cookie",
      "res.headers['set-cookie']",
      "*.apiKey",
      "*.password",
    ],
  });
}
