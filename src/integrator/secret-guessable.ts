// Secrets a person makes rather than a random source, which look random to an entropy estimate
// (secret-strength.ts) and so pass it: the hex digest of a common password (MD5 of "password" is 32 hex characters,
// the original service's form, and estimates at about 120 bits) and keyboard walks (`1qaz2wsx3edc…`,
// `qwertyuiopasdfghjkl…`), which use many distinct characters in no repeated order.
//
// The common passwords are zxcvbn's list (`@zxcvbn-ts/language-common`, MIT: ranked from leaked password sets), the
// first COMMON_PASSWORDS of them hashed with MD5, SHA-1, SHA-256 and SHA-512 once, at the first secret checked.
// The walks are read on the same package's keyboard graphs (the neighbours of each key on QWERTY, QWERTZ, AZERTY,
// Dvorak and the numeric keypads), one layout at a time.
import crypto from "node:crypto";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/** How many of the list's passwords (most common first) are hashed: 0.1 to 0.2 s and about 8 MB, once. */
export const COMMON_PASSWORDS = 10_000;
/** Keys in a row one after the other, at least this many, make a walk. */
const MIN_WALK = 4;
/**
 * Beyond this share of characters in walks on one layout, a secret is a keyboard walk. Random secrets stay far
 * below it: the highest of 200,000 of each form measured 0.63 (32 hex characters, on the keypad, where digits are
 * all neighbours), 0.47 on a letter layout; 0.41 for random bytes in base64.
 */
const MAX_WALK_SHARE = 0.8;
const DIGEST_ALGORITHMS = ["md5", "sha1", "sha256", "sha512"] as const;

let known: Map<string, string> | undefined;

/** The common passwords and their hex digests, lower case, each with what it is. */
function commonForms(): Map<string, string> {
  if (known) return known;
  const passwords = (dictionary["passwords-common"] as string[]).slice(0, COMMON_PASSWORDS);
  known = new Map(passwords.map((p) => [p.toLowerCase(), "a common password"]));
  for (const algorithm of DIGEST_ALGORITHMS)
    for (const password of passwords)
      known.set(
        crypto.createHash(algorithm).update(password, "utf8").digest("hex"),
        `the ${algorithm.toUpperCase()} digest of a common password`,
      );
  return known;
}

/**
 * Whether the secret is a common password or the hex digest of one (in any case), in words; undefined when not.
 * Each form given is tried: the text of a secret, and for a Standard Webhooks key its bytes as text and as hex.
 */
export function commonPassword(...forms: string[]): string | undefined {
  for (const form of forms) {
    const what = commonForms().get(form.toLowerCase());
    if (what) return what;
  }
  return undefined;
}

type Layout = Map<string, Set<string>>;
let layouts: Map<string, Layout> | undefined;

/** Each layout's keys with their neighbours (a key's shifted character is a key of its own in the graphs). */
function keyboards(): Map<string, Layout> {
  if (layouts) return layouts;
  const graphs = adjacencyGraphs as Record<string, Record<string, (string | null)[]>>;
  layouts = new Map(
    Object.entries(graphs).map(([name, graph]) => [
      name,
      new Map(
        Object.entries(graph).map(([key, near]) => [key, new Set(near.flatMap((n) => (n ? [...n] : [])))]),
      ),
    ]),
  );
  return layouts;
}

/**
 * The layout the secret is most a walk on, and the share of its characters in walks (runs of at least MIN_WALK
 * neighbouring keys), when that share passes MAX_WALK_SHARE; undefined otherwise.
 */
export function keyboardWalk(secret: string): { layout: string; share: number } | undefined {
  let most: { layout: string; share: number } | undefined;
  for (const [name, layout] of keyboards()) {
    let covered = 0;
    let run = 1;
    for (let i = 1; i <= secret.length; i++) {
      const previous = secret[i - 1] as string;
      if (i < secret.length && secret[i] !== previous && layout.get(previous)?.has(secret[i] as string))
        run++;
      else {
        if (run >= MIN_WALK) covered += run;
        run = 1;
      }
    }
    const share = covered / secret.length;
    if (share > MAX_WALK_SHARE && share > (most?.share ?? 0)) most = { layout: name, share };
  }
  return most;
}
