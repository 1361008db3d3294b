import { z } from "zod";
import type { Actor } from "../auth/actor.ts";
import { AppError, parseInput } from "../errors.ts";
import type { PresentationService } from "../presentations/presentation-service.ts";
import type { BlobStore } from "../storage/blobs.ts";
import type { DownloadSigner } from "./download-signer.ts";
import type { Renderer } from "./render-pool.ts";

export const exportFormats = ["pptx", "pdf"] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportInputSchema = z
  .object({ format: z.enum(exportFormats).default("pptx").describe("pptx (default) or pdf") })
  .strict();

export const exportResultSchema = z
  .object({
    downloadUrl: z.string().describe("Signed link, valid 14 hours"),
    expiresAt: z.iso.datetime(),
    format: z.enum(exportFormats),
  })
  .meta({ id: "ExportResult" });

const contentTypes: Record<ExportFormat, string> = {
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  pdf: "application/pdf",
};

/** A file name from the deck's name: letters, digits and dashes, never empty. */
export function fileNameFor(name: string, format: ExportFormat): string {
  const base = name
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .slice(0, 80);
  return `${base || "presentation"}.${format}`;
}

export function createExportService(deps: {
  presentations: PresentationService;
  blobs: BlobStore;
  signer: DownloadSigner;
  renderer: Pick<Renderer, "render">;
  /** Announces a newly rendered file (export.ready). */
  onRendered?: (actor: Actor, presentationId: string, format: ExportFormat) => Promise<unknown>;
  publicUrl: string;
}) {
  // Concurrent exports of the same deck version share one render.
  const inFlight = new Map<string, Promise<void>>();
  const renderOnce = (key: string, work: () => Promise<Buffer>, stored: () => Promise<unknown>) => {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = work()
        .then((bytes) => deps.blobs.put(key, bytes))
        .then(async () => void (await stored()))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
  return {
    /** Renders (or reuses) the file for the deck as it is now, and signs a link to it. */
    async export(actor: Actor, presentationId: string, input: unknown) {
      const { format } = parseInput(exportInputSchema, input ?? {});
      const deck = await deps.presentations.get(actor, presentationId);
      if (deck.status !== "ready") {
        throw new AppError(
          "presentation_not_ready",
          `The presentation is ${deck.status}; only a ready presentation can be exported`,
        );
      }
      // The same version of a deck in the same format is rendered once.
      const version = new Date(deck.updatedAt).getTime();
      const key = `exports/${actor.workspaceId}/${deck.id}/${version}.${format}`;
      if (!(await deps.blobs.exists(key))) {
        await renderOnce(
          key,
          () => deps.renderer.render(deck, format),
          async () => deps.onRendered?.(actor, deck.id, format),
        );
      }
      const { query, expiresAt } = deps.signer.sign(key, fileNameFor(deck.name, format));
      return {
        downloadUrl: `${deps.publicUrl}/downloads?${query}`,
        expiresAt: expiresAt.toISOString(),
        format,
      };
    },

    /** The file a signed link grants, with its type and name. */
    async open(query: Record<string, unknown>) {
      const grant = deps.signer.verify(query);
      const blob = await deps.blobs.get(grant.key);
      if (!blob) throw new AppError("not_found", "The exported file is gone; export the presentation again");
      const format = grant.key.endsWith(".pdf") ? "pdf" : "pptx";
      return { ...blob, filename: grant.filename, contentType: contentTypes[format] };
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
