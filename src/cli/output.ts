import { ConfigError } from "../config.ts";
import { AppError } from "../errors.ts";
import { DataDirBusyError } from "../storage/data-dir-lock.ts";

// Every command prints either text for people or, with --json, exactly one JSON object; failures
// go to stderr (as {error, code} with --json) and exit non-zero.

export type Printer = { json: boolean };

export function printResult(p: Printer, result: Record<string, unknown>, text: string): void {
  process.stdout.write(p.json ? `${JSON.stringify(result)}\n` : `${text}\n`);
}

export function printFailure(p: Printer, err: unknown): void {
  const known = err instanceof AppError || err instanceof ConfigError || err instanceof DataDirBusyError;
  const message = known
    ? (err as Error).message
    : `Unexpected error: ${(err as Error)?.stack ?? String(err)}`;
  const code = err instanceof AppError ? err.code : known ? "invalid_request" : "internal_error";
  if (p.json) {
    const details = err instanceof AppError ? err.details : undefined;
    process.stderr.write(`${JSON.stringify({ error: message, code, details })}\n`);
  } else {
    process.stderr.write(`Error: ${message}\n`);
  }
}
