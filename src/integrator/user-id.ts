// The integrator's id of a user, as every room that names one accepts it.
import { Type } from "@sinclair/typebox";
import { invalid, MESSAGES } from "../platform/errors.ts";

/**
 * The longest id accepted, in characters (Unicode code points). The id is kept and answered exactly as given;
 * where it names a file or fills a field that cannot hold it as it is (the AVI's `id_usuario`, storage paths, the
 * text files' user column), src/jurisdictions/user-ids.ts writes it in a documented encoding
 * (docs/decisions/0026-user-ids-and-every-chain-addresses.md).
 */
export const FOREIGN_USER_ID_MAX = 255;

/** The id's schema: its length only; `foreignUserIdProblem` says what else it may not hold, in words. */
export const ForeignUserIdSchema = Type.String({
  minLength: 1,
  maxLength: FOREIGN_USER_ID_MAX,
  description:
    "the integrator's id of the user: 1-255 characters, no control characters (U+0000-U+001F, U+007F-U+009F); kept and answered exactly as given",
});

/** Why the id cannot be taken (a control character, a lone surrogate), or undefined. */
export function foreignUserIdProblem(id: string): string | undefined {
  const control = /\p{Cc}/u.exec(id);
  if (control) {
    const code = (control[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
    return `must not contain control characters: U+${code} at position ${[...id.slice(0, control.index)].length + 1}`;
  }
  if (/\p{Cs}/u.test(id)) return "must be valid Unicode text: it holds a lone surrogate";
  return undefined;
}

/** The id, or a 400 naming the field (`path`, a JSON pointer such as `/foreign_user_id`) and the problem. */
export function checkForeignUserId(id: string, path: string, message: string = MESSAGES.invalidBody): string {
  const problem = foreignUserIdProblem(id);
  if (problem) throw invalid(message, [{ path, message: problem }]);
  return id;
}
