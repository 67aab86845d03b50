// Resolves a presented API key to its project and role. Keys are found in the database by HMAC, never by their
// value.
//
// Every authenticated request needs this, so answers are cached for a short time (one second by default): a
// key revoked through this process stops working at once (the cache entry is dropped), one revoked through
// another process within that second. `last_used_at` is written in batches rather than on every request.
import type { Kysely } from "kysely";
import { lookupHashes, type ServerKeys } from "../platform/crypto/secrets.ts";
import type { Principal } from "../platform/http/auth.ts";
import type { DB } from "../schema.ts";
import { isWellFormedApiKey } from "./key-format.ts";

interface CacheEntry {
  principal: Principal | undefined;
  expires: number;
}

export class KeyAuthenticator {
  readonly #cache = new Map<string, CacheEntry>();
  /**
   * Answers for unknown keys, apart: a flood of guessed keys fills this small map, not the one real keys live in,
   * so it cannot push them out.
   */
  readonly #unknown = new Map<string, CacheEntry>();
  readonly #inFlight = new Map<string, Promise<CacheEntry>>();
  /** Bumped by forget(), so that a lookup started before a revocation is not cached after it. */
  #generation = 0;
  readonly #lastUsed = new Map<number, Date>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly serverKeys: ServerKeys,
    private readonly opts: {
      cacheMs?: number;
      maxEntries?: number;
      maxUnknown?: number;
      flushMs?: number;
    } = {},
  ) {
    this.#timer = setInterval(() => void this.flushLastUsed().catch(() => {}), opts.flushMs ?? 5000);
    this.#timer.unref();
  }

  authenticate = async (key: string): Promise<Principal | undefined> => {
    const now = Date.now();
    // The cache is keyed by the presented key itself (only ever in this process's memory, like the rate
    // limiter's per-key counters), so a hit costs neither the checksum nor the HMAC: together about 5 µs of every
    // authenticated request (bench/http-chain-detail.ts). Only well-formed keys are remembered, and a miss or an
    // expired answer is checked and looked up by HMAC exactly as before.
    let entry = this.#cache.get(key) ?? this.#unknown.get(key);
    if (!entry || entry.expires < now) {
      if (!isWellFormedApiKey(key)) return undefined;
      // Requests that miss together share one lookup: when a busy key's answer expires, every request in flight
      // would otherwise query the database at the same instant (50 queries at once each second in the bench).
      let pending = this.#inFlight.get(key);
      if (!pending) {
        pending = this.#lookUp(key, now).finally(() => {
          if (this.#inFlight.get(key) === pending) this.#inFlight.delete(key);
        });
        this.#inFlight.set(key, pending);
      }
      entry = await pending;
    }
    if (entry.principal?.keyId) this.#lastUsed.set(entry.principal.keyId, new Date(now));
    return entry.principal;
  };

  /**
   * Whether the key was valid at its last lookup and is still remembered (its answer may have expired): what lets a
   * customer through an address limited for failed authentications (auth.ts). A guessed key is never known, so
   * the limit still bounds the lookups a guesser causes; a known key is looked up again as usual when its answer
   * has expired, so a revoked one stops working as it would anywhere.
   */
  knows = (key: string): boolean => this.#cache.get(key)?.principal !== undefined;

  /** Whether the key has our shape and checksum: a key without them is never looked up, so never worth a probe. */
  wellFormed = (key: string): boolean => isWellFormedApiKey(key);

  async #lookUp(key: string, now: number): Promise<CacheEntry> {
    const generation = this.#generation;
    const row = await this.db
      .selectFrom("api_keys")
      .select(["id", "project_id", "role"])
      // Under the current secret, or under one it replaced while `vigia secret reseal` has not re-keyed the row.
      .where("key_hmac", "in", lookupHashes(this.serverKeys, key))
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    const entry = {
      principal: row ? { keyId: row.id, userId: null, projectId: row.project_id, role: row.role } : undefined,
      expires: now + (this.opts.cacheMs ?? 1000),
    };
    // A lookup that was under way when a key was revoked may have read it as valid: answer it, don't keep it.
    if (generation === this.#generation) this.#remember(key, entry);
    return entry;
  }

  /** Drops cached answers for a key (after revocation); lookups under way are neither shared nor kept after this. */
  forget(keyId: number): void {
    this.#generation++;
    this.#inFlight.clear();
    for (const [presented, entry] of this.#cache)
      if (entry.principal?.keyId === keyId) this.#cache.delete(presented);
  }

  #remember(key: string, entry: CacheEntry): void {
    // A key is in one map only: a known key found revoked leaves the map of real keys, and the other way round.
    (entry.principal ? this.#unknown : this.#cache).delete(key);
    const [cache, max] = entry.principal
      ? [this.#cache, this.opts.maxEntries ?? 10_000]
      : [this.#unknown, this.opts.maxUnknown ?? 1_000];
    if (cache.size >= max) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(key, entry);
  }

  /** How many answers are cached: known keys, and unknown ones apart. */
  get cached(): { known: number; unknown: number } {
    return { known: this.#cache.size, unknown: this.#unknown.size };
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
