import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, type ErrorCode, type ErrorDetail } from "../errors.ts";

// One place turns every failure into the JSON Error shape: no HTML page, no stack trace.

const codeForStatus: Record<number, ErrorCode> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "edit_not_understood",
  429: "rate_limited",
  503: "upstream_unavailable",
};

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  if (err.code === "unauthorized" && !reply.hasHeader("www-authenticate")) {
    reply.header("www-authenticate", 'Bearer realm="decksmith"');
  }
  return reply.code(err.status).type("application/json; charset=utf-8").send({
    error: err.message,
    code: err.code,
    message: err.message,
    details: err.details,
    supportedForms: err.supportedForms,
  });
}

function toAppError(err: FastifyError, request: FastifyRequest): AppError {
  if (err instanceof AppError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext ?? "body";
    const details: ErrorDetail[] = err.validation.map((v) => ({
      path: [where, ...v.instancePath.split("/").filter(Boolean)].join("."),
      message: v.message ?? "is invalid",
    }));
    const summary = details.map((d) => `${d.path}: ${d.message}`).join("; ");
    return new AppError("invalid_request", `Invalid request: ${summary}`, details);
  }
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new AppError("invalid_request", `Malformed JSON body: ${err.message}`);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("invalid_request", "The JSON body is empty; send {} for no fields");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError("payload_too_large", "The request body is larger than this server accepts");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new AppError(
        "unsupported_media_type",
        `Unsupported Content-Type ${JSON.stringify(request.headers["content-type"] ?? "")}; send application/json`,
      );
  }
  const status = err.statusCode ?? 500;
  const code = codeForStatus[status];
  if (code) return new AppError(code, err.message);
  return new AppError("internal_error", "Internal server error; the details are in the server log");
}

export function installErrorHandling(app: FastifyInstance, routePatterns: RoutePatterns): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const appError = toAppError(err, request);
    if (appError.status >= 500) request.log.error({ err }, "request failed");
    return sendError(reply, appError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const allowed = routePatterns.methodsFor(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header("allow", allowed.join(", "));
      return sendError(
        reply,
        new AppError(
          "method_not_allowed",
          `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
        ),
      );
    }
    return sendError(reply, new AppError("not_found", `No route ${request.method} ${path}`));
  });
}

/** Remembers every route's path pattern so an unmatched request can tell 405 from 404. */
export class RoutePatterns {
  private readonly patterns: { regex: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: string | string[]): void {
    const source = url
      .split("/")
      .map((part) =>
        part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/");
    const regex = new RegExp(`^${source}/?$`);
    const existing = this.patterns.find((p) => p.regex.source === regex.source);
    const list = Array.isArray(methods) ? methods : [methods];
    if (existing) for (const m of list) existing.methods.add(m);
    else this.patterns.push({ regex, methods: new Set(list) });
  }

  methodsFor(path: string): string[] {
    const methods = new Set<string>();
    for (const p of this.patterns) if (p.regex.test(path)) for (const m of p.methods) methods.add(m);
    return [...methods].sort();
  }
}
