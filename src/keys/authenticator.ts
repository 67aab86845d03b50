// Resolves a presented API key to its project and role. Keys are found by HMAC, never by their value.
//
// Every authenticated request needs this, so answers are cached for a short time (one second by default): a
// key revoked through this process stops working at once (the cache entry is dropped), one revoked through
// another process within that second. `last_used_at` is written in batches rather than on every request.
import type { Kysely } from "kysely";
import { hmacHex, type ServerKeys } from "../platform/crypto/secrets.ts";
import type { Principal } from "../platform/http/auth.ts";
import type { DB } from "../schema.ts";
import { isWellFormedApiKey } from "./key-format.ts";

interface CacheEntry {
  principal: Principal | undefined;
  expires: number;
}

export class KeyAuthenticator {
  readonly #cache = new Map<string, CacheEntry>();
  readonly #lastUsed = new Map<number, Date>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly serverKeys: ServerKeys,
    private readonly opts: { cacheMs?: number; maxEntries?: number; flushMs?: number } = {},
  ) {
    this.#timer = setInterval(() => void this.flushLastUsed().catch(() => {}), opts.flushMs ?? 5000);
    this.#timer.unref();
  }

  authenticate = async (key: string): Promise<Principal | undefined> => {
    if (!isWellFormedApiKey(key)) return undefined;
    const lookup = hmacHex(this.serverKeys.lookup, key);
    const now = Date.now();
    let entry = this.#cache.get(lookup);
    if (!entry || entry.expires < now) {
      const row = await this.db
        .selectFrom("api_keys")
        .select(["id", "project_id", "role"])
        .where("key_hmac", "=", lookup)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      entry = {
        principal: row ? { keyId: row.id, projectId: row.project_id, role: row.role } : undefined,
        expires: now + (this.opts.cacheMs ?? 1000),
      };
      this.#remember(lookup, entry);
    }
    if (entry.principal) this.#lastUsed.set(entry.principal.keyId, new Date(now));
    return entry.principal;
  };

  /** Drops cached answers for a key (after revocation). */
  forget(keyId: number): void {
    for (const [lookup, entry] of this.#cache)
      if (entry.principal?.keyId === keyId) this.#cache.delete(lookup);
  }

  #remember(lookup: string, entry: CacheEntry): void {
    if (this.#cache.size >= (this.opts.maxEntries ?? 10_000)) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(lookup, entry);
  }

  async flushLastUsed(): Promise<void> {
    const pending = [...this.#lastUsed];
    this.#lastUsed.clear();
    for (const [keyId, at] of pending) {
      await this.db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", keyId).execute();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flushLastUsed();
  }
}
