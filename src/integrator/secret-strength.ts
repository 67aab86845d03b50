// Whether a webhook secret an admin brings (PATCH /projects/{id} `webhook_secret`: the secret an integrator of the
// original service already verifies with) is fit to sign with: its shape in the project's scheme, its length, and
// an estimate of its entropy that refuses what a person would type or a program would repeat. The estimate can't
// see a dictionary word, only predictable text: the symbols' own distribution (Shannon, times their number), a
// repeated unit (`passwordpassword…`) and runs of equal or consecutive symbols (`0123…`, `aaaa…`), over the
// characters of a canonical secret and the key bytes of a Standard Webhooks one. A random secret passes every check
// by far: 32 hex characters (`openssl rand -hex 16`, the original's form) estimate at about 115 bits, the lowest of
// 200,000 random ones at 86; 24 random bytes at about 108 (the lowest of 200,000 at 94); the floor is 72. What
// looks random to that estimate but is not, the digest of a common password and a keyboard walk, is refused first
// (secret-guessable.ts).
import { commonPassword, keyboardWalk } from "./secret-guessable.ts";
import type { SigningScheme } from "./signing.ts";

export const MIN_CANONICAL_LENGTH = 32;
export const MAX_SECRET_LENGTH = 256;
/** Standard Webhooks keys are 24 to 64 bytes. */
export const MIN_KEY_BYTES = 24;
export const MAX_KEY_BYTES = 64;
export const MIN_ENTROPY_BITS = 72;
/** Beyond this share of neighbouring characters equal or consecutive, a secret is a run (random hex: at most ~0.5). */
const MAX_RUN_SHARE = 0.75;
/** How to make a good secret, in each scheme's form. */
const HOW_TO: Record<SigningScheme, string> = {
  "hmac-canonical": "make a random one with `openssl rand -hex 32`",
  "standard-webhooks": "make a random one with `echo whsec_$(openssl rand -base64 32)`",
};

/** Why a secret can't sign in the scheme, in words for the 400's detail; undefined when it can. */
export function weakSecret(scheme: SigningScheme, secret: string): string | undefined {
  if (!/^[\x21-\x7e]+$/.test(secret))
    return "a webhook secret holds printable ASCII characters only, without spaces";
  // What the HMAC is keyed with: the text's characters (canonical), the key's bytes (Standard Webhooks).
  let symbols = [...secret].map((c) => c.charCodeAt(0));
  // What a person could have typed or hashed: the secret's text, and a Standard Webhooks key's bytes.
  let forms = [secret];
  if (scheme === "standard-webhooks") {
    if (!secret.startsWith("whsec_"))
      return "a Standard Webhooks secret is `whsec_` followed by the base64 of its key";
    const text = secret.slice("whsec_".length);
    const key = Buffer.from(text, "base64");
    if (
      !/^[A-Za-z0-9+/]+={0,2}$/.test(text) ||
      key.toString("base64").replace(/=+$/, "") !== text.replace(/=+$/, "")
    )
      return "a Standard Webhooks secret is `whsec_` followed by the base64 of its key: this is not base64";
    if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES)
      return `a Standard Webhooks key is ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes; this one is ${key.length}`;
    symbols = [...key];
    forms = [key.toString("latin1"), key.toString("hex")];
  } else if (secret.length < MIN_CANONICAL_LENGTH || secret.length > MAX_SECRET_LENGTH) {
    return `an hmac-canonical secret is ${MIN_CANONICAL_LENGTH} to ${MAX_SECRET_LENGTH} characters (the original service's is 32 hex characters, \`openssl rand -hex 16\`); this one is ${secret.length}`;
  }
  const what = scheme === "standard-webhooks" ? "bytes" : "characters";
  const common = commonPassword(...forms);
  if (common) return `the secret is ${common}, which is among the first guesses: ${HOW_TO[scheme]}`;
  const walk = forms.map(keyboardWalk).find((w) => w !== undefined);
  if (walk)
    return `the secret is a keyboard walk (${Math.round(walk.share * 100)}% of it in runs of neighbouring keys on ${walk.layout}): ${HOW_TO[scheme]}`;
  const unit = repeatedUnit(symbols);
  if (unit !== undefined)
    return `the secret repeats a unit of ${unit} ${unit === 1 ? what.slice(0, -1) : what}: use a random one (\`openssl rand -hex 16\`)`;
  if (runShare(symbols) > MAX_RUN_SHARE)
    return `the secret is mostly equal or consecutive ${what}: use a random one (\`openssl rand -hex 16\`)`;
  const bits = Math.floor(entropyBits(symbols));
  if (bits < MIN_ENTROPY_BITS)
    return `the secret is too predictable: about ${bits} bits by its ${what}, at least ${MIN_ENTROPY_BITS} needed (32 random hex characters have about 115)`;
  return undefined;
}

/** Shannon entropy of the symbols' own distribution (characters or bytes), times their number. */
export function entropyBits(symbols: readonly number[] | string): number {
  const list = typeof symbols === "string" ? [...symbols].map((c) => c.charCodeAt(0)) : symbols;
  const counts = new Map<number, number>();
  for (const c of list) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perSymbol = 0;
  for (const n of counts.values()) {
    const p = n / list.length;
    perSymbol -= p * Math.log2(p);
  }
  return perSymbol * list.length;
}

/** The length of the shortest unit the symbols repeat (at least twice), or undefined. */
function repeatedUnit(symbols: readonly number[]): number | undefined {
  for (let p = 1; p <= symbols.length / 2; p++) {
    let repeats = true;
    for (let i = p; i < symbols.length && repeats; i++) repeats = symbols[i] === symbols[i - p];
    if (repeats) return p;
  }
  return undefined;
}

/** The share of neighbouring symbols that are equal or consecutive (`aa`, `ab`, `ba`). */
function runShare(symbols: readonly number[]): number {
  let runs = 0;
  for (let i = 1; i < symbols.length; i++)
    if (Math.abs((symbols[i] as number) - (symbols[i - 1] as number)) <= 1) runs++;
  return symbols.length > 1 ? runs / (symbols.length - 1) : 1;
}
