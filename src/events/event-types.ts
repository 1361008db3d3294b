// What a presentation's event stream says, in order. The `presentation.*` and `export.ready`
// types are also webhook events; the others are progress, for the stream only.

export const webhookEventTypes = [
  "presentation.ready",
  "presentation.failed",
  "presentation.updated",
  "presentation.stopped",
  "export.ready",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export type PresentationEvent =
  | { type: "status"; data: { status: "generating" } }
  | { type: "outline"; data: { slideCount: number; titles: string[] } }
  | { type: "slide"; data: { n: number; of: number; title: string } }
  | { type: "presentation.ready"; data: { revision: number; slideCount: number } }
  | { type: "presentation.failed"; data: { reason: string } }
  | { type: "presentation.stopped"; data: Record<string, never> }
  | { type: "presentation.updated"; data: { revision: number; kind: "edit" | "restore"; changes: string[] } }
  | { type: "export.ready"; data: { format: "pptx" | "pdf"; revision?: number } };

export type StoredEvent = PresentationEvent & {
  id: number;
  workspaceId: string;
  presentationId: string;
  createdAt: Date;
};

/** After these a deck waits for nobody: generation is over. */
export const SETTLED_TYPES = new Set(["presentation.ready", "presentation.failed", "presentation.stopped"]);
