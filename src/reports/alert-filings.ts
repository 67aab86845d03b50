// An alert closed as `reported` marks the filings it waited on filed (docs/api.md, "Alerts"): the files of the
// avisos from knowledge that name it, and, for an alert of a transfer's 24-hour aviso, that transfer's aviso file. Each
// file's newest version still a draft is marked filed, with the alert's reference as its folio when it is one (YYYY-N)
// and without a folio otherwise; a file filed before under another folio is left as it is. The alert's history says
// which files were marked and which were not, and why.
import { avisosOfAlert } from "../avisos/index.ts";
import type { ReportsContext } from "./context.ts";
import { stemOf } from "./files.ts";
import { markFiled } from "./store.ts";

const FOLIO = /^[2-9]\d{3}-[1-9]\d{0,8}$/;

/** The alert as closed: its id, the filing it waited on, and the transfers it is about. */
export interface ReportedAlert {
  id: string;
  filing: string | null;
  txHashes: readonly string[];
}

/** The newest version of each file among `rows`: a later version of a filed file is named `<stem>.v2.xml`, .... */
function newest<T extends { path: string; version: number }>(rows: T[]): T[] {
  const bySlot = new Map<string, T>();
  for (const r of rows) {
    const slot = stemOf(r);
    const known = bySlot.get(slot);
    if (!known || r.version > known.version) bySlot.set(slot, r);
  }
  return [...bySlot.values()];
}

/** Marks filed what the alert's `reported` closing says was filed; the paths marked and those skipped (with why). */
export async function fileAlertFilings(
  ctx: ReportsContext,
  projectId: number,
  alert: ReportedAlert,
  reference: string,
  actor: string,
): Promise<{ paths: string[]; skipped: string[] }> {
  const references = (await avisosOfAlert(ctx.db, projectId, alert.id)).map((a) => a.reference);
  const transfers = alert.filing?.endsWith("-URGENT") ? [...alert.txHashes] : [];
  if (references.length === 0 && transfers.length === 0) return { paths: [], skipped: [] };
  const rows = await ctx.db
    .selectFrom("reports")
    .select(["path", "version", "status", "folio"])
    .where("project_id", "=", projectId)
    .where("kind", "=", "urgent")
    .where((eb) =>
      eb.or([
        ...references.map((r) => eb("path", "like", `%.24h.${r}%`)),
        ...(transfers.length > 0 ? [eb("tx_hash", "in", transfers)] : []),
      ]),
    )
    .execute();
  const folio = FOLIO.test(reference) ? reference : undefined;
  const out = { paths: [] as string[], skipped: [] as string[] };
  for (const r of newest(rows)) {
    if (r.status === "filed" && !(folio !== undefined && !r.folio)) {
      out.skipped.push(`${r.path}: filed already${r.folio ? ` with the folio ${r.folio}` : ""}`);
      continue;
    }
    // A draft is filed now; a file filed without a folio takes the alert's.
    try {
      await markFiled(ctx, projectId, r.path, folio, actor);
      out.paths.push(r.path);
    } catch (error) {
      // Filed meanwhile by someone else under another folio: the alert stays closed, and its history says so.
      out.skipped.push(`${r.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return out;
}
