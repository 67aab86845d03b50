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
    const { key } = await currentLists(this.#db);
    if (this.#loaded?.key === key) return this.#loaded;
    if (this.#building?.key !== key) {
      const promise = this.#build(key);
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

  async #build(asked: string): Promise<LoadedLists> {
    const started = performance.now();
    const entries: IndexedEntry[] = [];
    // The versions and their entries from one snapshot: an import committing meanwhile (and deleting the entries
    // of the version it replaces) cannot leave the index half of one list and labelled as another.
    const { key, lists } = await this.#db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const now = await currentLists(trx);
        for await (const { kind, version, projectId, entry } of currentEntries(trx))
          entries.push({ ...entry, list: kind, listVersion: version, listProject: projectId });
        return now;
      });
    if (key !== asked)
      this.#log?.info(
        { asked, key },
        "screening: the lists changed while their index was built; built as they are now",
      );
    const matcher = new PersonMatcher(entries);
    this.#log?.info(
      { lists: lists.map((l) => `${l.kind} ${l.version}`), entries: entries.length },
      `screening: ${entries.length} list entries indexed in ${Math.round(performance.now() - started)} ms`,
    );
    return { key, lists, matcher };
  }
}
