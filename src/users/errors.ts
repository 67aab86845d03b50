// The errors of this feature: each an AppError whose message is the catalog's English text and whose `text` lets
// the HTTP layer answer in the reader's language.
import { type MessageId, translate } from "../messages/index.ts";
import { AppError, type ErrorCode } from "../platform/errors.ts";

export function userError(
  code: ErrorCode,
  id: MessageId,
  params?: Record<string, string | number>,
  opts: { retryAfter?: number; path?: string } = {},
): AppError {
  const message = translate("en", id, params);
  const text = { id, ...(params ? { params } : {}) };
  return new AppError(code, message, {
    text,
    ...(opts.retryAfter !== undefined ? { retryAfter: opts.retryAfter } : {}),
    // The field's detail says the same, in the reader's language too.
    ...(opts.path ? { details: [{ path: opts.path, message, text }] } : {}),
  });
}
