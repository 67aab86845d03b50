// What a new password must be (NIST SP 800-63B, 5.1.1.2): at least 15 characters, since for most accounts the
// password is the only factor (TOTP is optional, and a rule that depended on it would let disabling TOTP leave a
// short password as the only factor); at most 128; not in a list of commonly used and breached passwords (the
// 49,000 of @zxcvbn-ts/language-common, compared without case); not the account's e-mail or name. No rules of
// composition (a digit, a symbol): the guideline advises against them.
import { dictionary } from "@zxcvbn-ts/language-common";

export const PASSWORD_MIN = 15;
export const PASSWORD_MAX = 128;

let common: Set<string> | undefined;
const commonPasswords = () => {
  common ??= new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));
  return common;
};

export type PasswordProblem =
  | { id: "password.too_short"; params: { min: number } }
  | { id: "password.too_long"; params: { max: number } }
  | { id: "password.common"; params?: undefined }
  | { id: "password.personal"; params?: undefined };

/** Why a password may not be used, or undefined when it may. */
export function passwordProblem(
  password: string,
  person: { email: string; displayName: string },
): PasswordProblem | undefined {
  // Length in characters as a person counts them (code points, not UTF-16 units).
  const length = [...password.normalize("NFC")].length;
  if (length < PASSWORD_MIN) return { id: "password.too_short", params: { min: PASSWORD_MIN } };
  if (length > PASSWORD_MAX) return { id: "password.too_long", params: { max: PASSWORD_MAX } };
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower) || new Set(lower).size <= 2) return { id: "password.common" };
  const compact = (s: string) => s.toLowerCase().replace(/[\s._-]+/g, "");
  const email = person.email.toLowerCase();
  const local = email.split("@")[0] ?? "";
  const personal = [email, local, person.displayName.toLowerCase()].map(compact).filter((s) => s.length >= 4);
  if (personal.some((word) => compact(lower).includes(word))) return { id: "password.personal" };
  return undefined;
}
