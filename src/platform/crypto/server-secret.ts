// Where the server secret comes from: VIGIA_SECRET, or on the embedded database a random one generated once
// into the data dir (so a newcomer needs no setup). PostgreSQL deployments run several processes that must
// agree on it, so there it has to be given; so does an in-memory database (tests), which has no data dir to
// keep one in. `vigia serve`, `vigia worker` and every other command resolve it here, by the same rule.
//
// Every key the service uses (encryption of stored secrets, API-key lookups, signed URLs) is derived from it, so it
// must carry at least 32 random bytes: `openssl rand -base64 32` makes one.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";
import { parsePreviousSecret, previousSecretEntry } from "./secrets.ts";

export const MIN_SECRET_BYTES = 32;
const HOW_TO = "make one with `openssl rand -base64 32`";

/**
 * At most how many random bytes a secret string carries: 4 bits per character of a hex string, 6 of a base64 one,
 * 8 otherwise; and none at all when few distinct characters make it up or one character dominates it.
 */
export function secretBytes(secret: string): number {
  const counts = new Map<string, number>();
  for (const c of secret) counts.set(c, (counts.get(c) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  if (counts.size < 10 || most > secret.length / 4) return 0;
  const bits = /^[0-9a-fA-F]+$/.test(secret) ? 4 : /^[A-Za-z0-9+/_=-]+$/.test(secret) ? 6 : 8;
  return Math.floor((secret.length * bits) / 8);
}

function checkStrength(secret: string, where: string): string {
  const bytes = secretBytes(secret);
  if (bytes < MIN_SECRET_BYTES)
    throw new Error(
      `${where} must carry at least ${MIN_SECRET_BYTES} random bytes (this one has at most ${bytes}); ${HOW_TO}`,
    );
  return secret;
}

export function serverSecret(config: Pick<Config, "secret" | "dataDir" | "databaseUrl">): string {
  if (config.secret) return checkStrength(config.secret, "VIGIA_SECRET");
  if (config.databaseUrl) throw new Error(`VIGIA_SECRET is required when DATABASE_URL is set; ${HOW_TO}`);
  if (config.dataDir === "memory://") throw new Error("VIGIA_SECRET is required with an in-memory database");
  const file = path.join(config.dataDir, "secret");
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // Written whole to a temporary file and linked into place only if none is there yet: a crash leaves either no
  // secret file or a complete one, and two processes starting together end up with the same secret.
  const temporary = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(temporary, crypto.randomBytes(MIN_SECRET_BYTES).toString("base64url"), { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return checkStrength(fs.readFileSync(file, "utf8").trim(), `The secret in ${file}`);
}

/**
 * The file beside the embedded secret that keeps the secrets it replaced, newest first, one per line, each as
 * `secret@<ISO time of the rotation>` (a line without a time, written before times were, is still read: it opens
 * sealed values and finds keys, but vouches for no signed URL).
 */
const PREVIOUS_FILE = "secret.previous";

/**
 * The secrets a rotation replaced, still accepted (newest first), each `secret` or `secret@<ISO time>`
 * (parsePreviousSecret): VIGIA_SECRET_PREVIOUS where VIGIA_SECRET is given, else the data dir's `secret.previous`
 * (written by `vigia secret rotate`).
 */
export function previousSecrets(
  config: Pick<Config, "secret" | "previousSecrets" | "dataDir" | "databaseUrl">,
): string[] {
  if (config.secret || config.databaseUrl || config.dataDir === "memory://") return config.previousSecrets;
  try {
    return fs
      .readFileSync(path.join(config.dataDir, PREVIOUS_FILE), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line, i) => {
        const where = `Line ${i + 1} of ${PREVIOUS_FILE}`;
        let secret: string;
        try {
          secret = parsePreviousSecret(line).secret;
        } catch (error) {
          throw new Error(`${where}: ${(error as Error).message}`);
        }
        checkStrength(secret, where);
        return line;
      });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * Replaces the embedded database's generated secret with a new one, keeping the old one first in
 * `secret.previous` with the time of the rotation (`secret@<ISO time>`: the URLs it signed before then stay valid, for
 * files written before then, until that time plus their lifetime, no longer: signed-url.ts); returns both. The previous file is written before the secret is replaced,
 * so a crash in between leaves both secrets known.
 */
export function rotateEmbeddedSecret(
  dataDir: string,
  now: number = Date.now(),
): { secret: string; previous: string[] } {
  const file = path.join(dataDir, "secret");
  const old = checkStrength(fs.readFileSync(file, "utf8").trim(), `The secret in ${file}`);
  const previous = [
    previousSecretEntry(old, now),
    ...previousSecrets({ dataDir, secret: undefined, previousSecrets: [], databaseUrl: undefined }),
  ];
  // One entry per secret: the newest, with its latest rotation time.
  const seen = new Set<string>();
  const unique = previous.filter((entry) => {
    const { secret } = parsePreviousSecret(entry);
    if (seen.has(secret)) return false;
    seen.add(secret);
    return true;
  });
  writeWhole(path.join(dataDir, PREVIOUS_FILE), `${unique.join("\n")}\n`);
  const secret = crypto.randomBytes(MIN_SECRET_BYTES).toString("base64url");
  writeWhole(file, secret);
  return { secret, previous: unique };
}

/** Writes a file of this user's alone, whole: to a temporary file first, then renamed over the target. */
function writeWhole(file: string, content: string): void {
  const temporary = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(temporary, content, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/**
 * Writes a moved store's secret (and those it still accepted) into a fresh embedded data dir, so that its API
 * keys, sealed values and signed URLs keep working there. Never replaces a secret already in place.
 */
export function adoptEmbeddedSecret(dataDir: string, secret: string, previous: readonly string[]): boolean {
  const file = path.join(dataDir, "secret");
  if (fs.existsSync(file)) return false;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (previous.length > 0) writeWhole(path.join(dataDir, PREVIOUS_FILE), `${previous.join("\n")}\n`);
  writeWhole(file, checkStrength(secret, "The exported secret"));
  return true;
}
