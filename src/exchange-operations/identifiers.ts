// The identifiers a fiat operation names, checked before it is accepted: a Mexican CLABE (18 digits whose last is a
// check digit over the first 17, weights 3-7-1), a
// Brazilian CPF or CNPJ (check digits modulo 11) and a Pix key (a CPF, a CNPJ, an e-mail, a +55 phone number or a
// random key). The CNPJ is checked here rather than by the library: since July 2026 the Receita Federal issues
// alphanumeric CNPJs (Instrução Normativa RFB 2.229/2024), whose first twelve characters may be letters valued as
// their ASCII code minus 48, which the library refuses; the same computation covers the numeric ones.
import { isValidCPF, isValidPixKey } from "@brazilian-utils/brazilian-utils";

/** A problem with an identifier, in words an integrator can act on; null when it is valid. */
export type IdentifierProblem = string | null;

/** The check digit of a CLABE's first 17 digits: weights 3, 7, 1 repeated, each product taken modulo 10. */
export function clabeCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * ([3, 7, 1][i % 3] as number)) % 10;
  return (10 - (sum % 10)) % 10;
}

/** The CLABE's problem, or null. */
export function clabeProblem(value: string): IdentifierProblem {
  if (!/^\d{18}$/.test(value)) return "must be a CLABE of 18 digits";
  const digit = clabeCheckDigit(value);
  if (digit !== Number(value[17])) return `is not a valid CLABE: its check digit should be ${digit}`;
  return null;
}

const CNPJ_FIRST = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SECOND = [6, ...CNPJ_FIRST];

function cnpjDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += ((chars.charCodeAt(i) - 48) * (weights[i] as number)) % 1e9;
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** Whether `value` (punctuation allowed) is a valid CNPJ, numeric or alphanumeric. */
export function isValidCnpj(value: string): boolean {
  const v = value.replace(/[./-]/g, "").toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(v) || /^(\d)\1{13}$/.test(v)) return false;
  const first = cnpjDigit(v, CNPJ_FIRST);
  return first === Number(v[12]) && cnpjDigit(v, CNPJ_SECOND) === Number(v[13]);
}

/** The Brazilian tax id's problem (a CPF of 11 digits or a CNPJ of 14 characters), or null. */
export function brazilianTaxIdProblem(value: string): IdentifierProblem {
  const v = value.replace(/[./-]/g, "");
  if (/^\d{11}$/.test(v)) return isValidCPF(v) ? null : "is not a valid CPF: its check digits do not match";
  if (/^[0-9A-Za-z]{12}\d{2}$/.test(v))
    return isValidCnpj(v) ? null : "is not a valid CNPJ: its check digits do not match";
  return "must be a CPF (11 digits) or a CNPJ (14 characters)";
}

/** The Pix key's problem, or null: a CPF, a CNPJ, an e-mail, a phone number as +55…, or a random key (a UUID). */
export function pixKeyProblem(value: string): IdentifierProblem {
  if (isValidPixKey(value) || isValidCnpj(value)) return null;
  return "is not a Pix key: send a CPF, a CNPJ, an e-mail, a phone number as +55 and its digits, or a random key (a UUID)";
}
