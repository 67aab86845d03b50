// Reading the lists of persons back: the current version of each kind (what a screening names as what it was
// screened against), and their entries for the matcher.
import type { Kysely } from "kysely";
import type { DB } from "../../schema.ts";
import type { ListEntry, ListKind } from "../entry.ts";

export interface ListVersion {
  kind: ListKind;
  version: string;
  listDate: string | null;
  entries: number;
  importedAt: string;
  source: string;
  /** the project whose own list it is (the UIF's LPB); null for a service-wide list */
  projectId: number | null;
}

/** Whether a project's screenings read this list: a service-wide one, or the project's own. */
export const visibleTo = (projectId: number) => (l: { projectId: number | null }) =>
  l.projectId === null || l.projectId === projectId;

/** The current version of every imported kind, with the row ids that name this state of the lists. */
export async function currentLists(db: Kysely<DB>): Promise<{ key: string; lists: ListVersion[] }> {
  const rows = await db
    .selectFrom("person_lists")
    .select(["id", "kind", "version", "list_date", "entries", "imported_at", "source", "project_id"])
    .where("current", "=", true)
    .orderBy("kind")
    .orderBy("id")
    .execute();
  return {
    key: rows.map((r) => `${r.kind}@${r.id}`).join(","),
    lists: rows.map((r) => ({
      kind: r.kind as ListKind,
      version: r.version,
      listDate: r.list_date,
      entries: r.entries,
      importedAt: r.imported_at.toISOString(),
      source: r.source,
      projectId: r.project_id,
    })),
  };
}

/** The entries of the current versions, a page at a time (the largest lists hold hundreds of thousands). */
export async function* currentEntries(
  db: Kysely<DB>,
  page = 5_000,
): AsyncGenerator<{ kind: ListKind; version: string; projectId: number | null; entry: ListEntry }> {
  const lists = await db
    .selectFrom("person_lists")
    .select(["id", "kind", "version", "project_id"])
    .where("current", "=", true)
    .execute();
  for (const list of lists) {
    let after = "";
    for (;;) {
      const rows = await db
        .selectFrom("person_list_entries")
        .select(["entry_id", "entry"])
        .where("list_id", "=", list.id)
        .where("entry_id", ">", after)
        .orderBy("entry_id")
        .limit(page)
        .execute();
      for (const r of rows)
        yield {
          kind: list.kind as ListKind,
          version: list.version,
          projectId: list.project_id,
          entry: r.entry,
        };
      const last = rows.at(-1);
      if (!last || rows.length < page) break;
      after = last.entry_id;
    }
  }
}
