// The workers' scheduled refresh of the public lists: each kind whose last import is older than its interval
// (VIGIA_LIST_REFRESH_HOURS) is downloaded through the safe outbound client and imported as `vigia lists refresh`
// and `vigia sanctions update` do, shrink guard included (VIGIA_LIST_MAX_SHRINK_PERCENT: a truncated download is
// refused, never imported). Every outcome is recorded (list_refreshes), logged and counted: imported, unchanged,
// refused (it would shrink the list past the limit, roll it back, or it held nothing: nothing changed) and failed
// (the download or the file). A failed or refused refresh is tried again after an hour, or the interval if shorter.
//
// One process of a fleet fetches a list: a worker claims a kind by moving its `last_attempt_at` in one statement
// that only succeeds while the kind is still due.
import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { ofKind, type PerKind } from "../../platform/config.ts";
import type { OutboundClient } from "../../platform/outbound/index.ts";
import { PollingLoop } from "../../platform/polling.ts";
import type { DB } from "../../schema.ts";
import type { ListKind } from "../../screening/index.ts";
import { InputError, ShrinkRefused } from "../labels/row-problems.ts";
import { downloadList } from "../person-lists/download.ts";
import { importPersonListFiles } from "../person-lists/import.ts";
import { downloadSdnList, updateSanctions } from "../sanctions/update.ts";
import { importRunKind, REFRESHED_KINDS, type RefreshedKind, refreshUrl } from "./kinds.ts";

export type RefreshOutcome = "imported" | "unchanged" | "refused" | "failed";

/** After a failed or refused refresh, the next try waits this long (or the interval, if shorter). */
const RETRY_MS = 3_600_000;
/** How often the loop looks for a list that is due. */
const POLL_MS = 60_000;

export interface ListRefresherOptions {
  db: Kysely<DB>;
  outbound: OutboundClient;
  refreshHours: PerKind;
  urls: Record<string, string>;
  maxShrink: number;
  now?: () => Date;
  log?: {
    info(o: object, m: string): void;
    warn(o: object, m: string): void;
    error(o: object, m: string): void;
  };
  /** told of each refresh's outcome (the metric vigia_list_refreshes_total) */
  onOutcome?: (kind: RefreshedKind, outcome: RefreshOutcome) => void;
  /** told of a step of the loop that threw (the database went away): logged and counted by the owner */
  onError?: (error: unknown) => void;
}

export class ListRefresher {
  readonly #o: ListRefresherOptions;
  #loop: PollingLoop | undefined;
  /** Cancels a download in flight when the worker stops: a list of 100 MB must not hold a shutdown. */
  readonly #stopping = new AbortController();

  constructor(options: ListRefresherOptions) {
    this.#o = options;
  }

  /** The kinds the schedule refreshes: an interval above 0 and a URL to fetch from. */
  scheduledKinds(): RefreshedKind[] {
    return REFRESHED_KINDS.filter(
      (kind) => ofKind(this.#o.refreshHours, kind) > 0 && refreshUrl(kind, this.#o.urls) !== undefined,
    );
  }

  /** Refreshes the first due kind, if any; resolves to 1 when it refreshed one (more may be due), else 0. */
  async runOnce(): Promise<number> {
    for (const kind of this.scheduledKinds()) {
      if (!(await this.#claim(kind))) continue;
      await this.refresh(kind);
      return 1;
    }
    return 0;
  }

  /** Refreshes one kind now, whatever its schedule, and records the outcome. */
  async refresh(kind: RefreshedKind): Promise<RefreshOutcome> {
    const { db, log } = this.#o;
    const url = refreshUrl(kind, this.#o.urls) as string;
    let outcome: RefreshOutcome;
    let error: string | null = null;
    let file: string | undefined;
    try {
      if (kind === "sanctions") {
        file = await downloadSdnList(this.#o.outbound, url, undefined, this.#stopping.signal);
        const summary = await updateSanctions(db, file, { maxShrink: this.#o.maxShrink });
        outcome = summary.inserted + summary.updated + summary.deleted > 0 ? "imported" : "unchanged";
      } else {
        file = await downloadList(this.#o.outbound, kind as ListKind, url, undefined, this.#stopping.signal);
        const summary = await importPersonListFiles(db, kind as ListKind, [file], {
          maxShrink: this.#o.maxShrink,
          source: url,
        });
        outcome = summary.status;
      }
    } catch (e) {
      // Refused: the file was read and judged not to replace the list (shrunk, older, empty). Failed: anything else.
      outcome = e instanceof ShrinkRefused || e instanceof InputError ? "refused" : "failed";
      error = (e as Error).message.slice(0, 4000);
    } finally {
      if (file) await fs.promises.rm(path.dirname(file), { recursive: true, force: true }).catch(() => {});
    }
    const now = this.#now();
    const succeeded = outcome === "imported" || outcome === "unchanged";
    await db
      .insertInto("list_refreshes")
      .values({
        kind,
        last_attempt_at: now,
        last_success_at: succeeded ? now : null,
        last_outcome: outcome,
        last_error: error,
        failures: succeeded ? 0 : 1,
      })
      .onConflict((oc) =>
        oc.column("kind").doUpdateSet({
          last_attempt_at: now,
          last_outcome: outcome,
          last_error: error,
          ...(succeeded
            ? { last_success_at: now, failures: 0 }
            : { failures: sql<number>`list_refreshes.failures + 1` }),
        }),
      )
      .execute();
    this.#o.onOutcome?.(kind, outcome);
    const fields = { kind, url, outcome };
    if (succeeded) log?.info(fields, `list ${kind} refreshed from ${url}: ${outcome}`);
    else if (outcome === "refused")
      log?.error({ ...fields, error }, `list ${kind} refresh refused, the list is kept as it was: ${error}`);
    else
      log?.error({ ...fields, error }, `list ${kind} refresh failed, the list is kept as it was: ${error}`);
    return outcome;
  }

  start(): void {
    this.#loop = new PollingLoop(
      () => this.runOnce(),
      1,
      POLL_MS,
      (error) => {
        this.#o.log?.error({ err: (error as Error).message }, "the list refresh loop failed a step");
        this.#o.onError?.(error);
      },
    );
    this.#loop.start();
  }

  stop(): Promise<void> {
    this.#stopping.abort();
    return this.#loop?.stop() ?? Promise.resolve();
  }

  #now(): Date {
    return this.#o.now?.() ?? new Date();
  }

  /**
   * Claims a kind's refresh when it is due: its last import is older than the interval (or it has none), and its
   * last try is too (an hour after a failure, or the interval if shorter). True for the one process that claimed.
   */
  async #claim(kind: RefreshedKind): Promise<boolean> {
    const { db } = this.#o;
    const now = this.#now();
    const intervalMs = ofKind(this.#o.refreshHours, kind) * 3_600_000;
    const lastImport = await db
      .selectFrom("import_runs")
      .select((eb) => eb.fn.max("finished_at").as("at"))
      .where("kind", "=", importRunKind(kind))
      .where("status", "=", "completed")
      .executeTakeFirst();
    if (lastImport?.at && now.getTime() - new Date(lastImport.at).getTime() < intervalMs) return false;
    await db
      .insertInto("list_refreshes")
      .values({ kind })
      .onConflict((oc) => oc.column("kind").doNothing())
      .execute();
    const afterSuccess = new Date(now.getTime() - intervalMs);
    const afterFailure = new Date(now.getTime() - Math.min(intervalMs, RETRY_MS));
    const claimed = await db
      .updateTable("list_refreshes")
      .set({ last_attempt_at: now })
      .where("kind", "=", kind)
      .where((eb) =>
        eb.or([
          eb("last_attempt_at", "is", null),
          eb.and([eb("failures", "=", 0), eb("last_attempt_at", "<=", afterSuccess)]),
          eb.and([eb("failures", ">", 0), eb("last_attempt_at", "<=", afterFailure)]),
        ]),
      )
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) > 0;
  }
}
