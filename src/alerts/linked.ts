// Which alerts belong together: those raised by one transfer (the rules it infringed, e.g. XB-OFAC and
// MX-24H-LISTA, each an alert of its own) and those of one client event (a listed person's entry met by the
// client's screening and by an operation they attempted: the same client and list entry). Read for a page of alerts
// among the alerts of the same subjects and clients (alerts_subject_idx, alerts_client_idx), at most CANDIDATES of
// them, the newest.
import { type Kysely, type Selectable, sql } from "kysely";
import type { DB } from "../schema.ts";
import type { AlertsTable } from "./tables.ts";

const CANDIDATES = 2000;
const CLIENT_EVENTS = new Set(["person_match", "attempt"]);

interface Linkable {
  id: string;
  chain_id: number;
  user_id: string | null;
  cause: string;
  cause_key: string;
  tx: string[];
}

const txOf = (row: Selectable<AlertsTable>) => row.evidence.transfers.map((t) => t.txHash);

function linked(a: Linkable, b: Linkable): boolean {
  if (a.id === b.id) return false;
  if (a.chain_id === b.chain_id && a.tx.some((h) => b.tx.includes(h))) return true;
  return (
    a.user_id !== null &&
    a.user_id === b.user_id &&
    CLIENT_EVENTS.has(a.cause) &&
    CLIENT_EVENTS.has(b.cause) &&
    a.cause_key === b.cause_key
  );
}

/** For each alert of `rows`, the ids of the other alerts of the project linked to it, oldest first. */
export async function linkedAlertIds(
  db: Kysely<DB>,
  projectId: number,
  rows: readonly Selectable<AlertsTable>[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(rows.map((r) => [String(r.id), []]));
  if (rows.length === 0) return out;
  const subjects = [...new Map(rows.map((r) => [`${r.chain_id}\n${r.address}`, r])).values()];
  const clients = [...new Set(rows.map((r) => r.user_id).filter((u): u is string => u !== null))];
  const candidates = await db
    .selectFrom("alerts")
    .select([
      "id",
      "chain_id",
      "user_id",
      "cause",
      "cause_key",
      sql<
        string[] | null
      >`(SELECT jsonb_agg(t->>'txHash') FROM jsonb_array_elements(evidence->'transfers') t)`.as("tx"),
    ])
    .where("project_id", "=", projectId)
    .where((eb) =>
      eb.or([
        ...subjects.map((s) => eb.and([eb("chain_id", "=", s.chain_id), eb("address", "=", s.address)])),
        ...(clients.length > 0 ? [eb("user_id", "in", clients)] : []),
      ]),
    )
    .orderBy("id", "desc")
    .limit(CANDIDATES)
    .execute();
  const others: Linkable[] = candidates.map((c) => ({ ...c, id: String(c.id), tx: c.tx ?? [] }));
  for (const row of rows) {
    const self: Linkable = { ...row, id: String(row.id), tx: txOf(row) };
    out.set(
      self.id,
      others
        .filter((o) => linked(self, o))
        .map((o) => o.id)
        .sort((a, b) => Number(a) - Number(b)),
    );
  }
  return out;
}
