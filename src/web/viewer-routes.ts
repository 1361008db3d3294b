import fs from "node:fs";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { eventStreams, lastEventId } from "../api/event-stream.ts";
import { AppError } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { PresentationService } from "../presentations/presentation-service.ts";
import type { ExportService } from "../rendering/export-service.ts";
import { fontPath, isFontFamily } from "../rendering/fonts.ts";
import type { SlideGeometry } from "../rendering/geometry.ts";
import { deckGeometry } from "../rendering/render.ts";
import type { WorkspaceService } from "../workspaces/workspace-service.ts";
import { viewerPage } from "./viewer-page.ts";
import type { WebSessionHelpers } from "./web-session.ts";

// GET /p/{presentationId}: the deck for a signed-in member of its workspace; POST
// /p/{presentationId}/export: the same export as the API, then straight to the download;
// GET /p/{presentationId}/events: its progress stream, for the viewer of a deck being written.
// GET /fonts/{family}/{weight}.ttf: the theme fonts the viewer's slides use.

type Deps = {
  pages: WebSessionHelpers;
  bus: EventBus;
  workspaces: WorkspaceService;
  presentations: PresentationService;
  exports: ExportService;
};

export const viewerRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const web = { config: { web: true }, schema: { hide: true } };

    app.get("/p/:presentationId", web, async (request, reply) => {
      const session = await deps.pages.require(request, reply);
      if (!session) return reply;
      const { presentationId } = request.params as { presentationId: string };
      const actor = await deps.workspaces.actorForPresentation(
        { userId: session.userId, via: "session" },
        presentationId,
      );
      const deck = await deps.presentations.get(actor, presentationId);
      let slides: SlideGeometry[] = [];
      let renderError: string | undefined;
      try {
        slides = deckGeometry(deck);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        renderError = err.message;
      }
      return reply.type("text/html; charset=utf-8").send(viewerPage({ session, deck, slides, renderError }));
    });

    // The viewer follows a deck that is still being written through this stream.
    const stream = eventStreams(app, deps.bus);
    app.get("/p/:presentationId/events", web, async (request, reply) => {
      const session = await deps.pages.current(request);
      if (!session) throw new AppError("unauthorized", "Sign in to follow this presentation");
      const { presentationId } = request.params as { presentationId: string };
      const actor = await deps.workspaces.actorForPresentation(
        { userId: session.userId, via: "session" },
        presentationId,
      );
      const afterId = lastEventId(request);
      const deck = await deps.presentations.get(actor, presentationId);
      await stream(request, reply, { workspaceId: actor.workspaceId, presentationId: deck.id, afterId });
    });

    app.post("/p/:presentationId/export", web, async (request, reply) => {
      const session = await deps.pages.require(request, reply);
      if (!session) return reply;
      const fields = deps.pages.form(request);
      deps.pages.checkCsrf(session, fields);
      const { presentationId } = request.params as { presentationId: string };
      const actor = await deps.workspaces.actorForPresentation(
        { userId: session.userId, via: "session" },
        presentationId,
      );
      const result = await deps.exports.export(actor, presentationId, { format: fields.format });
      // Same-origin path, so the browser stays on whatever host it used to reach this page.
      const link = new URL(result.downloadUrl);
      return reply.redirect(link.pathname + link.search, 303);
    });

    app.get(
      "/fonts/:family/:file",
      { schema: { hide: true }, config: { rateLimit: false } },
      async (request, reply) => {
        const { family, file } = request.params as { family: string; file: string };
        const weight = file === "regular.ttf" ? "regular" : file === "bold.ttf" ? "bold" : undefined;
        if (!isFontFamily(family) || !weight) throw new AppError("not_found", "No such font");
        // The files never change within a release; the licence (SIL OFL) allows serving them.
        return reply
          .type("font/ttf")
          .header("cache-control", "public, max-age=86400")
          .send(fs.createReadStream(fontPath(family, weight)));
      },
    );
  };
