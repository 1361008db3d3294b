// Every failure the service reports is an AppError with one of these codes; the HTTP layer maps
// codes to statuses through this one table, and MCP reuses the same codes.

export const errorStatus = {
  invalid_request: 400,
  unauthorized: 401,
  plan_required: 403,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  presentation_not_ready: 409,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  edit_not_understood: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  upstream_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorDetail = { path: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  /** With edit_not_understood: the instruction forms that are understood. */
  readonly supportedForms?: string[];

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[], supportedForms?: string[]) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
    this.supportedForms = supportedForms;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);

/** Parses service input, turning a validation failure into a 400 that names each bad field. */
export function parseInput<S extends import("zod").ZodType>(
  schema: S,
  input: unknown,
): import("zod").output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.join(".") || "(root)",
    message: issue.message,
  }));
  const summary = details.map((d) => `${d.path}: ${d.message}`).join("; ");
  throw new AppError("invalid_request", `Invalid input: ${summary}`, details);
}
