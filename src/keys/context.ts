// What the keys feature needs from the composition root.
import type { Kysely } from "kysely";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import type { DB } from "../schema.ts";

export interface KeysContext {
  db: Kysely<DB>;
  serverKeys: ServerKeys;
}

/** Who made a change, as written into the audit log. */
export type Actor = { kind: "key"; keyId: number } | { kind: "cli" } | { kind: "system" };
export const actorName = (actor: Actor) => (actor.kind === "key" ? `key:${actor.keyId}` : actor.kind);
