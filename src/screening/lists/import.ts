// Writing one version of a list of persons (migrations/0031_person_lists.sql), in the caller's transaction (the
// import's: src/ingest/person-lists), so that a list is replaced whole or not at all. The entries are written as
// they are read, under a new version row; once the last is in, the digest of what was read decides: the same as the
// current version's, and the new row goes again (no entry changed; a later date is taken by the current version);
// otherwise the new version becomes current and the old one's entries are removed. An entry id read twice (the SAT
// lists a taxpayer once per situation it went through) is one entry, its names, dates and programmes joined.
//
// A list is never rolled back unless forced: one whose publisher's date (ListInfo.listDate) is older than the current
// version's is refused with OlderListError, before any entry is written when the date is known from the file's head,
// or once the last entry is read when it is not (FollowTheMoney's latest change). The same date is not a rollback
// (the same content changes nothing; other content is the publisher's correction of that day's list), and a list
// without a date, or replacing one without, cannot be compared and is imported. Nor does a list shrink past the
// caller's share (options.maxShrink): ShrunkListError, with both counts, and nothing is changed.
import { createHash } from "node:crypto";
import { Value } from "@sinclair/typebox/value";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../schema.ts";
import { type ListEntry, ListEntrySchema, type ListInfo, PROJECT_LIST_KINDS } from "../entry.ts";

const BATCH = 500;

/** A list dated earlier than the current version of its kind: importing it would roll the list back. */
export class OlderListError extends Error {
  constructor(
    readonly kind: string,
    readonly listDate: string,
    readonly current: { version: string; listDate: string },
  ) {
    super(
      `the ${kind} list read is dated ${listDate}, older than the current version ${current.version} (dated ${current.listDate}): refused, a list is not rolled back unless forced`,
    );
  }
}

/**
 * A list that would lose more than the allowed share of its entries: a truncated but well-formed download looks so,
 * and replacing the list with it would stop screening everyone it left out.
 */
export class ShrunkListError extends Error {
  constructor(
    readonly kind: string,
    readonly current: number,
    readonly read: number,
    readonly maxShrink: number,
  ) {
    super(
      `the ${kind} list read holds ${read} entries where the current version holds ${current}: it would remove ${current - read} (${percent((current - read) / current)}), more than the ${percent(maxShrink)} allowed; refused, a list does not shrink so unless allowed`,
    );
  }
}

/** 0.1 -> "10 %", 0.10037 -> "10.04 %": two decimals at most, so a share just past a limit does not read as it. */
export function percent(share: number): string {
  return `${Number((share * 100).toFixed(2))} %`;
}

export interface ListImportSummary {
  kind: string;
  /** `imported`: a new version is current; `unchanged`: the current version holds the same entries */
  status: "imported" | "unchanged";
  version: string;
  list_date: string | null;
  entries: number;
  /** entry ids read more than once, joined into one entry */
  joined: number;
  /** the version it replaced, if any */
  replaced: { version: string; entries: number } | null;
  /** set when a list older than the current one was imported by force: the current version's date it went back from */
  rolled_back_from?: string;
}

function union<T>(a: readonly T[], b: readonly T[]): T[] {
  const seen = new Set(a.map((x) => JSON.stringify(x)));
  return [...a, ...b.filter((x) => !seen.has(JSON.stringify(x)))];
}

function joinEntries(a: ListEntry, b: ListEntry): ListEntry {
  return {
    ...a,
    names: union(a.names, b.names),
    dates: union(a.dates, b.dates),
    countries: union(a.countries, b.countries),
    identifiers: union(a.identifiers, b.identifiers),
    programs: union(a.programs, b.programs),
  };
}

export async function importPersonList(
  trx: Kysely<DB>,
  info: ListInfo,
  entries: AsyncIterable<ListEntry>,
  options: {
    now?: Date;
    progress?: (read: number) => void;
    /** import even a list dated earlier than the current version (a deliberate rollback) */
    force?: boolean;
    /** the largest share (0-1) of the current version's entries the new one may leave out; undefined: any */
    maxShrink?: number;
  } = {},
): Promise<ListImportSummary> {
  const now = options.now ?? new Date();
  // One import of a kind at a time: a second waits, then finds the first's version current (and may be `unchanged`).
  const owned = PROJECT_LIST_KINDS.includes(info.kind);
  if (owned !== (info.projectId !== undefined))
    throw new Error(
      owned
        ? `the ${info.kind} list is each project's own (the UIF delivers it to each provider): name the project (--project N)`
        : `the ${info.kind} list is service-wide: it takes no project`,
    );
  const projectId = info.projectId ?? null;
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`person-list:${info.kind}:${projectId ?? ""}`}))`.execute(
    trx,
  );
  const current = await trx
    .selectFrom("person_lists")
    .select(["id", "version", "digest", "entries", "list_date"])
    .where("kind", "=", info.kind)
    .where((eb) => (projectId === null ? eb("project_id", "is", null) : eb("project_id", "=", projectId)))
    .where("current", "=", true)
    .forUpdate()
    .executeTakeFirst();
  // Compared as YYYY-MM-DD text. Checked now when the file's head gave the date, and again at the end for a date
  // known only once every entry is read.
  const older = () =>
    current?.list_date != null && info.listDate !== undefined && info.listDate < current.list_date;
  const refuseOlder = () => {
    if (older() && !options.force && current?.list_date)
      throw new OlderListError(info.kind, info.listDate as string, {
        version: current.version,
        listDate: current.list_date,
      });
  };
  refuseOlder();
  const row = await trx
    .insertInto("person_lists")
    .values({
      kind: info.kind,
      version: "pending",
      list_date: null,
      source: info.source,
      digest: "",
      entries: 0,
      imported_at: now,
      current: false,
      project_id: projectId,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const listId = row.id;
  const hash = createHash("sha256");
  let read = 0;
  let joined = 0;
  let batch: ListEntry[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    // Ids repeated inside the batch are joined before the insert; ids already written are joined after it.
    const byId = new Map<string, ListEntry>();
    for (const e of batch) {
      const known = byId.get(e.entryId);
      if (known) joined += 1;
      byId.set(e.entryId, known ? joinEntries(known, e) : e);
    }
    batch = [];
    const inserted = await trx
      .insertInto("person_list_entries")
      .values(
        [...byId.values()].map((e) => ({ list_id: listId, entry_id: e.entryId, entry: JSON.stringify(e) })),
      )
      .onConflict((oc) => oc.columns(["list_id", "entry_id"]).doNothing())
      .returning("entry_id")
      .execute();
    if (inserted.length === byId.size) return;
    const written = new Set(inserted.map((r) => r.entry_id));
    for (const e of byId.values()) {
      if (written.has(e.entryId)) continue;
      joined += 1;
      const old = await trx
        .selectFrom("person_list_entries")
        .select("entry")
        .where("list_id", "=", listId)
        .where("entry_id", "=", e.entryId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable("person_list_entries")
        .set({ entry: JSON.stringify(joinEntries(old.entry, e)) })
        .where("list_id", "=", listId)
        .where("entry_id", "=", e.entryId)
        .execute();
    }
  };
  for await (const entry of entries) {
    if (!Value.Check(ListEntrySchema, entry)) {
      const first = [...Value.Errors(ListEntrySchema, entry)][0];
      throw new Error(
        `entry ${(entry as { entryId?: string }).entryId ?? read + 1} of the ${info.kind} list is malformed: ${first?.path ?? ""} ${first?.message ?? ""}`,
      );
    }
    hash.update(JSON.stringify(entry));
    hash.update("\n");
    read += 1;
    batch.push(entry);
    if (batch.length >= BATCH) {
      await flush();
      options.progress?.(read);
    }
  }
  await flush();
  options.progress?.(read);
  refuseOlder();
  const digest = hash.digest("hex");
  const count = read - joined;
  if (current && current.digest === digest) {
    await trx.deleteFrom("person_lists").where("id", "=", listId).execute();
    // The same entries republished under a later date: no entry changes, but the current version takes the later
    // date (and version), so that a list dated between the two is still seen as the rollback it is.
    const later =
      info.listDate !== undefined && (current.list_date === null || info.listDate > current.list_date);
    let version = current.version;
    if (later) {
      version = info.version ?? current.version;
      await trx
        .updateTable("person_lists")
        .set({ version, list_date: info.listDate ?? null })
        .where("id", "=", current.id)
        .execute();
    }
    return {
      kind: info.kind,
      status: "unchanged",
      version,
      list_date: later ? (info.listDate ?? null) : current.list_date,
      entries: current.entries,
      joined,
      replaced: null,
    };
  }
  if (
    current &&
    options.maxShrink !== undefined &&
    current.entries - count > current.entries * options.maxShrink
  )
    throw new ShrunkListError(info.kind, current.entries, count, options.maxShrink);
  // A list that says its version keeps it; one whose content changed under the same version says both.
  const version =
    info.version === undefined
      ? `sha256:${digest.slice(0, 16)}`
      : current?.version === info.version
        ? `${info.version}+sha256:${digest.slice(0, 8)}`
        : info.version;
  if (current) {
    await trx.updateTable("person_lists").set({ current: false }).where("id", "=", current.id).execute();
    await trx.deleteFrom("person_list_entries").where("list_id", "=", current.id).execute();
  }
  await trx
    .updateTable("person_lists")
    .set({ version, list_date: info.listDate ?? null, digest, entries: count, current: true })
    .where("id", "=", listId)
    .execute();
  return {
    kind: info.kind,
    status: "imported",
    version,
    list_date: info.listDate ?? null,
    entries: count,
    joined,
    replaced: current ? { version: current.version, entries: current.entries } : null,
    ...(older() && current?.list_date ? { rolled_back_from: current.list_date } : {}),
  };
}
