// An error of the service in the reader's language: the catalog message it was raised with (AppError's `text`),
// else the one of its fixed public message (platform/errors.ts MESSAGES), else the generic one of its code. English
// keeps the message the error was raised with, which is the API's contract (docs/api.md "Languages").
import { type AppError, type ErrorCode, type ErrorDetail, MESSAGES } from "../platform/errors.ts";
import { CATALOG, type MessageId } from "./catalog.ts";
import type { Lang } from "./define.ts";
import { isLang, translate } from "./translate.ts";

const FIXED: Record<string, MessageId> = {
  [MESSAGES.invalidBody]: "error.invalid_body",
  [MESSAGES.invalidQuery]: "error.invalid_query",
  [MESSAGES.invalidPath]: "error.invalid_path",
  [MESSAGES.invalidKey]: "error.invalid_key",
  "Invalid headers": "error.invalid_headers",
  "Request body is larger than 1 MiB": "error.payload_too_large",
  "Content-Type must be application/json": "error.unsupported_media_type",
};

const GENERIC: Partial<Record<ErrorCode, MessageId>> = {
  unauthorized: "error.unauthorized",
  not_found: "error.not_found",
  conflict: "error.conflict",
  unavailable: "error.unavailable",
  internal_error: "error.internal_error",
  payload_too_large: "error.payload_too_large",
  unsupported_media_type: "error.unsupported_media_type",
};

const isMessageId = (id: string): id is MessageId => id in CATALOG.en;

/** The error's message in `lang`; undefined for English, or for a language the catalog does not have. */
export function errorMessage(lang: string, error: AppError): string | undefined {
  if (!isLang(lang) || lang === "en") return undefined;
  return errorMessageIn(lang, error);
}

/** One of an error's details in `lang`; undefined for English, or for a detail the catalog does not word. */
export function errorDetail(lang: string, detail: ErrorDetail): string | undefined {
  if (!isLang(lang) || lang === "en" || !detail.text || !isMessageId(detail.text.id)) return undefined;
  return translate(lang, detail.text.id, detail.text.params);
}

function errorMessageIn(lang: Lang, error: AppError): string {
  const text = error.text;
  if (text && isMessageId(text.id)) return translate(lang, text.id, text.params);
  const fixed = FIXED[error.message];
  if (fixed) return translate(lang, fixed);
  if (error.code === "rate_limited")
    return translate(lang, "error.rate_limited", { seconds: error.retryAfter ?? 60 });
  if (error.code === "invalid_request")
    return translate(lang, "error.invalid_request", { message: error.message });
  if (error.code === "forbidden") return translate(lang, "error.forbidden_generic");
  const generic = GENERIC[error.code];
  return generic ? translate(lang, generic) : error.message;
}
