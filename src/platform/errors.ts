// The one error type of the service and the one table that maps its codes to HTTP statuses and to the
// `{success:false, error, message}` envelope of docs/api.md ("Envelope and errors"). Routes, verbs and domain code throw
// AppError (it knows no HTTP framework: platform/http turns it into a response); nothing else decides what a
// client sees.
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The fixed public messages (docs/api.md, "Envelope and errors"). */
export const MESSAGES = {
  invalidBody: "Invalid body",
  invalidQuery: "Invalid query",
  invalidPath: "Invalid path",
  invalidKey: "The api key is invalid",
  forbidden: "Forbidden",
  internal: "Internal server error",
} as const;

/**
 * A message of the catalog (src/messages) that says the error in the reader's language: its id and parameters. The
 * HTTP layer writes it in the request's language; the message the error was raised with stays the English one.
 */
export interface ErrorText {
  id: string;
  params?: Record<string, string | number>;
}

export interface ErrorDetail {
  path: string;
  message: string;
  /** The message in the catalog, for answers in another language (never sent: the body has path and message). */
  text?: ErrorText;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly retryable: boolean;
  /** Seconds, sent as Retry-After with 429 and 503. */
  readonly retryAfter: number | undefined;
  /**
   * Already counted and logged where it was raised (a refusal under load, which logging one by one would make
   * dearer): the HTTP layer does not log it again.
   */
  readonly reported: boolean;
  /** The message in the catalog, for answers in another language than English (see ErrorText). */
  readonly text: ErrorText | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: {
      details?: ErrorDetail[];
      retryable?: boolean;
      retryAfter?: number;
      cause?: unknown;
      reported?: boolean;
      text?: ErrorText;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.details = opts.details;
    this.retryable = opts.retryable ?? (code === "unavailable" || code === "rate_limited");
    this.retryAfter = opts.retryAfter;
    this.reported = opts.reported ?? false;
    this.text = opts.text;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return {
      success: false,
      error: this.code,
      message: this.message,
      ...(this.details ? { details: this.details.map(({ path, message }) => ({ path, message })) } : {}),
    };
  }
}

export interface ErrorBody {
  success: false;
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const invalid = (message: string, details?: ErrorDetail[]) =>
  new AppError("invalid_request", message, details ? { details } : {});
