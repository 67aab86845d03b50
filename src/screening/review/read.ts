// What a person-match alert is about, read back from the screening: the profile's person as it was screened (the
// persons kept of the client's profile) and the list entry as listed (at the version the alert names, else the
// current one, else what the alert kept of it).
import type { Kysely } from "kysely";
import type { PersonCandidateEvidence } from "../../alerts/index.ts";
import type { DB } from "../../schema.ts";
import type { ListEntry } from "../entry.ts";
import type { PersonInput } from "../schemas.ts";
import type { Subject } from "../subjects.ts";

/** The person of the client's kept profile the candidate is of; undefined when the profile no longer names them. */
export async function screenedPerson(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
  c: { subject: string; role: string },
): Promise<PersonInput | undefined> {
  const row = await db
    .selectFrom("client_screenings")
    .select("subjects")
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return (row?.subjects as Subject[] | undefined)?.find(
    (s) => s.role === c.role && s.person.name === c.subject,
  )?.person;
}

export interface ListedEntry {
  entry: ListEntry;
  listVersion: string;
  listDate: string | null;
  /** `alerted`: the version the alert names; `current`: the list's current one (the alert's was replaced); `kept`:
   * only what the alert kept (the entry left the list), without its identifiers */
  source: "alerted" | "current" | "kept";
}

export async function listedEntry(
  db: Kysely<DB>,
  projectId: number,
  c: PersonCandidateEvidence,
): Promise<ListedEntry> {
  const rows = await db
    .selectFrom("person_lists as l")
    .leftJoin("person_list_entries as e", (j) =>
      j.onRef("e.list_id", "=", "l.id").on("e.entry_id", "=", c.entryId),
    )
    .select(["l.version", "l.list_date", "l.current", "e.entry"])
    .where("l.kind", "=", c.list)
    .where((w) => w.or([w("l.project_id", "is", null), w("l.project_id", "=", projectId)]))
    .where((w) => w.or([w("l.version", "=", c.listVersion), w("l.current", "=", true)]))
    .execute();
  const alerted = rows.find((r) => r.version === c.listVersion && r.entry);
  if (alerted?.entry)
    return {
      entry: alerted.entry,
      listVersion: alerted.version,
      listDate: alerted.list_date,
      source: "alerted",
    };
  const current = rows.find((r) => r.current && r.entry);
  if (current?.entry)
    return {
      entry: current.entry,
      listVersion: current.version,
      listDate: current.list_date,
      source: "current",
    };
  return {
    entry: {
      entryId: c.entryId,
      type: c.entry.type === "entity" ? "entity" : "person",
      names: c.entry.names,
      dates: c.entry.dates,
      countries: c.entry.countries,
      identifiers: [],
      programs: c.entry.programs,
    },
    listVersion: c.listVersion,
    listDate: rows.find((r) => r.version === c.listVersion)?.list_date ?? null,
    source: "kept",
  };
}
