import fs from "node:fs";
import os from "node:os";
import { AppError } from "../errors.ts";
import { type RenderableDeck, renderPdf, renderPptx } from "./render.ts";

// Runs inside a worker thread of the render pool (render-pool.ts). Errors cross the thread
// boundary as plain data, because a worker's thrown AppError arrives as a bare Error.

// Rendering is batch work; answering requests is not. On Linux a thread has its own nice value,
// so this thread yields the CPU to the event loop when both want it. Elsewhere it stays as is.
try {
  const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  if (tid > 0) os.setPriority(tid, 10);
} catch {
  // no /proc, or not permitted: run at normal priority
}

export type RenderTask = { deck: RenderableDeck; format: "pptx" | "pdf" };

export type RenderOutcome =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; code: AppError["code"]; message: string; details?: AppError["details"] };

export default async function render({ deck, format }: RenderTask): Promise<RenderOutcome> {
  try {
    const bytes = format === "pptx" ? await renderPptx(deck) : await renderPdf(deck);
    return { ok: true, bytes };
  } catch (err) {
    if (err instanceof AppError)
      return { ok: false, code: err.code, message: err.message, details: err.details };
    throw err;
  }
}
