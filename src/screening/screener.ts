// The matcher over the current lists, kept in memory and rebuilt when a list changes: every screening first asks
// the store which versions are current (one small query, so that an import by another process is seen at once),
// and the index of entries is built again only when that answer changed. Two screenings that find it changed
// share one rebuild.
import type { Kysely } from "kysely";
import type pino from "pino";
import type { DB } from "../schema.ts";
import { currentEntries, currentLists, type ListVersion } from "./lists/read.ts";
import { type IndexedEntry, PersonMatcher } from "./match/matcher.ts";

export interface LoadedLists {
  /** names this state of the lists (which version of each kind): a client screened under another key is re-screened */
  key: string;
  lists: ListVersion[];
  matcher: PersonMatcher;
}

export class Screener {
  readonly #db: Kysely<DB>;
  readonly #log: pino.Logger | undefined;
  #loaded: LoadedLists | undefined;
  #building: { key: string; promise: Promise<LoadedLists> } | undefined;

  constructor(db: Kysely<DB>, log?: pino.Logger) {
    this.#db = db;
    this.#log = log;
  }

  /** The lists as they stand now, and their matcher. */
  async current(): Promise<LoadedLists> {
    const { key, lists } = await currentLists(this.#db);
    if (this.#loaded?.key === key) return this.#loaded;
    if (this.#building?.key !== key) {
      const promise = this.#build(key, lists);
      this.#building = { key, promise };
      promise.then(
        (loaded) => {
          this.#loaded = loaded;
          if (this.#building?.promise === promise) this.#building = undefined;
        },
        () => {
          if (this.#building?.promise === promise) this.#building = undefined;
        },
      );
    }
    return this.#building.promise;
  }

  async #build(key: string, lists: ListVersion[]): Promise<LoadedLists> {
    const started = performance.now();
    const entries: IndexedEntry[] = [];
    for await (const { kind, version, entry } of currentEntries(this.#db))
      entries.push({ ...entry, list: kind, listVersion: version });
    const matcher = new PersonMatcher(entries);
    this.#log?.info(
      { lists: lists.map((l) => `${l.kind} ${l.version}`), entries: entries.length },
      `screening: ${entries.length} list entries indexed in ${Math.round(performance.now() - started)} ms`,
    );
    return { key, lists, matcher };
  }
}
