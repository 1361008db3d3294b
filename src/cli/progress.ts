// A progress line for long CLI work on stderr: redrawn in place on a terminal, a line every few
// seconds otherwise (CI logs), with rate and time left.

export function createProgress(label: string, total: number, unit: string) {
  const started = performance.now();
  const tty = Boolean(process.stderr.isTTY);
  let lastDraw = 0;
  const seconds = (s: number) => (s >= 90 ? `${Math.round(s / 60)} min` : `${Math.max(0, Math.round(s))} s`);

  return {
    update(done: number, extra = "", force = false) {
      const now = performance.now();
      if (!force && now - lastDraw < (tty ? 100 : 3000)) return;
      lastDraw = now;
      const elapsed = (now - started) / 1000;
      const fraction = total > 0 ? Math.min(1, done / total) : 0;
      const rate = elapsed > 0 ? done / elapsed : 0;
      const eta = fraction > 0 ? elapsed / fraction - elapsed : 0;
      const width = 24;
      const bar = "█".repeat(Math.round(fraction * width)).padEnd(width, "░");
      const line = `${label} ${bar} ${(fraction * 100).toFixed(0).padStart(3)}%  ${Math.round(rate)} ${unit}/s  ${fraction < 1 ? `${seconds(eta)} left` : "done"}${extra ? `  ${extra}` : ""}`;
      process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
    },
    finish() {
      if (tty) process.stderr.write("\n");
    },
  };
}
