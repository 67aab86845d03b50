// What the keys feature needs from the composition root.
import type { Kysely } from "kysely";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import type { DB } from "../schema.ts";

export interface KeysContext {
  db: Kysely<DB>;
  serverKeys: ServerKeys;
}
