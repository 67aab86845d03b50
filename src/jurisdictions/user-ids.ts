// How the integrator's id of a user (`foreign_user_id`: 1-255 characters, no control characters) is written where
// it cannot be written as it is (docs/decisions/0026-user-ids-and-every-chain-addresses.md, docs/reports/):
//  - a file's name (a storage path segment: letters, digits, `.`, `_`, `-`, starting with a letter or a digit, at
//    most 128 characters with the version, digest and extension that follow it): `userStem`;
//  - the AVI's `id_usuario` (the XSD's id_usuario_type: 1-30 of A-Z, digits, `-` and `_`): `aviUserId`;
//  - the user column of the text files (Colombia, El Salvador, Guatemala: `|`-separated, ISO-8859-1): `textUserId`.
// Every id accepted before (1-30 letters, digits, `-`, `_`) keeps the form it had, so files already filed and the
// regulator's records go on naming the same user the same way. The API, the notifications and the report list
// always answer the original id; each report row keeps it beside the file (`userId`).
import crypto from "node:crypto";

/** Ids written as they are in a file name: what UUIDs and the ids of 1-30 letters, digits, `-`, `_` are. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** The longest id, in UTF-8 bytes, whose name spells it (in hex): longer ones are named by a digest. */
const SPELLED_MAX_BYTES = 36;

const digest = (id: string) => crypto.createHash("sha256").update(id, "utf8").digest();

/**
 * The stem of a user's file names: the id itself when it is plain (letters, digits, `-`, `_`, starting with a
 * letter or digit, at most 64 characters: UUIDs and every id accepted before); else `u.` and the hex of its UTF-8
 * bytes when they are at most 36 (reversible: `ana@example.com` is `u.616e61406578616d706c652e636f6d`); else `h.`
 * and the first 32 hex digits of its SHA-256. Plain stems hold no dot, so no stem can be another's, the informe en
 * ceros' (`informe-en-ceros.YYYYMM`) or a 24-hour aviso's (`<stem>.24h.<reference>`).
 */
export function userStem(id: string): string {
  if (PLAIN_NAME.test(id)) return id;
  const bytes = Buffer.from(id, "utf8");
  if (bytes.length <= SPELLED_MAX_BYTES) return `u.${bytes.toString("hex")}`;
  return `h.${digest(id).toString("hex").slice(0, 32)}`;
}

/** The ids the AVI took as they are before 255 characters were accepted. */
const AVI_PLAIN = /^[A-Za-z0-9_-]{1,30}$/;
/** The form of a digest code: a plain id of this form is coded too, so that no two users share an id_usuario. */
const AVI_CODE = /^H-[A-Z2-7]{28}$/i;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 (no padding). */
function base32(bytes: Buffer): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The AVI's `id_usuario`: an id of 1-30 letters, digits, `-` and `_` upper-cased (as it always was); any other id
 * `H-` and the first 28 base32 characters (RFC 4648) of the SHA-256 of its UTF-8 bytes, 30 characters in all. The
 * code cannot be read back by itself (30 characters cannot hold 255): the integrator computes it from its own ids,
 * and the report list answers each file's original `userId`.
 */
export function aviUserId(id: string): string {
  if (AVI_PLAIN.test(id) && !AVI_CODE.test(id)) return id.toUpperCase();
  return `H-${base32(digest(id)).slice(0, 28)}`;
}

/**
 * The user column of the text files: the id, with `%`, `|`, spaces and every character outside printable ASCII
 * percent-encoded as the UTF-8 bytes of a URI component (`ana maría` is `ana%20mar%C3%ADa`); reversible with any
 * URI decoder, and unchanged for ids of printable ASCII without `%` or `|` (every id accepted before, UUIDs,
 * e-mail addresses).
 */
export function textUserId(id: string): string {
  return id.replace(/[^\x21-\x7e]|[%|]/gu, (c) => encodeURIComponent(c));
}
