import { afterAll, describe, expect, it } from "vitest";
import { allLayoutsDeck } from "../../test/fixtures/all-layouts-deck.ts";
import { AppError } from "../errors.ts";
import { createRenderPool } from "./render-pool.ts";

describe("render pool", () => {
  const pool = createRenderPool({ threads: 2 });
  afterAll(() => pool.close());

  it("starts no thread until asked", () => {
    expect(pool.stats()).toEqual({ threads: 0, completed: 0 });
  });

  it("renders PPTX and PDF in worker threads", async () => {
    const [pptx, pdf] = await Promise.all([
      pool.render(allLayoutsDeck, "pptx"),
      pool.render(allLayoutsDeck, "pdf"),
    ]);
    expect(pptx.subarray(0, 2).toString()).toBe("PK");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pool.stats().threads).toBeGreaterThanOrEqual(1);
    expect(pool.stats().completed).toBe(2);
  });

  it("brings a bad placeholder back as the same 400, naming the slide and key", async () => {
    const deck = {
      ...allLayoutsDeck,
      slides: [
        { index: 0, layoutName: "bar-chart", placeholders: { title: "Revenue", chart: "no numbers here" } },
      ],
    };
    const error = await pool.render(deck, "pdf").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("invalid_request");
    expect((error as AppError).details?.[0]?.path).toMatch(/^slides\.0\.placeholders\.chart$/);
  });

  it("stops its threads on close", async () => {
    await pool.close();
    expect(pool.stats().threads).toBe(0);
  });
});
