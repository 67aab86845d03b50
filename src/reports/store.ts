// Reading the report rows for the API: the month's list with its filters, one report by its path (always within
// the asking project: another project's report is "not found"), marking a report filed, and the generations.

import { sql } from "kysely";
import { alertsAwaitingTransfers, closeReported } from "../alerts/index.ts";
import { avisoByReference } from "../avisos/index.ts";
import { JURISDICTION_CODES } from "../jurisdictions/index.ts";
import { AppError, notFound } from "../platform/errors.ts";
import { isUnder } from "../platform/storage/index.ts";
import { writeAudit } from "../projects/index.ts";
import type { ReportsContext } from "./context.ts";
import type { CountryCode, GenerationProblem, ReportKind } from "./tables.ts";

export interface ReportView {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  path: string;
  countryCode: CountryCode;
  period: string;
  userId: string | null;
  kind: ReportKind;
  version: number;
  /** failed: the file could not be written (`reason`, `field`); it has no bytes until a generation writes it */
  status: "draft" | "filed" | "failed";
  size: number;
  sha256: string | null;
  filedAt: string | null;
  folio: string | null;
  reason: string | null;
  /** why, as a code (`no_value`, `pending`, `invalid_file`, `profile_unreadable`, `unknown_basis`): the pages say it */
  code: string | null;
  field: string | null;
}

const COLUMNS = [
  "path",
  "name",
  "created_at",
  "updated_at",
  "country_code",
  "period",
  "user_id",
  "kind",
  "version",
  "status",
  "size",
  "sha256",
  "filed_at",
  "folio",
  "storage_key",
  "media_type",
] as const;

type Row = {
  path: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  country_code: CountryCode;
  period: string;
  user_id: string | null;
  kind: ReportKind;
  version: number;
  status: "draft" | "filed";
  size: number;
  sha256: string;
  filed_at: Date | null;
  folio: string | null;
  storage_key: string;
  media_type: string;
};

const view = (r: Row): ReportView => ({
  id: r.path,
  name: r.name,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
  path: r.path,
  countryCode: r.country_code,
  period: r.period,
  userId: r.user_id,
  kind: r.kind,
  version: r.version,
  status: r.status,
  size: r.size,
  sha256: r.sha256,
  filedAt: r.filed_at ? new Date(r.filed_at).toISOString() : null,
  folio: r.folio,
  reason: null,
  code: null,
  field: null,
});

export interface ListQuery {
  projectId: number;
  countryCode: CountryCode;
  period: string;
  limit: number;
  offset: number;
  search?: string;
}

/**
 * The month's files and, after them, the files that could not be written (status `failed`, with the reason), by
 * name; `search` filters both by name or user id.
 */
export async function listReports(ctx: ReportsContext, q: ListQuery): Promise<ReportView[]> {
  const pattern = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  let query = ctx.db
    .selectFrom("reports")
    .select(COLUMNS)
    .where("project_id", "=", q.projectId)
    .where("country_code", "=", q.countryCode)
    .where("period", "=", q.period);
  // By user id too: a file's name spells an id only when it can (src/jurisdictions/user-ids.ts).
  if (pattern) query = query.where(sql<boolean>`(name ILIKE ${pattern} OR user_id ILIKE ${pattern})`);
  const rows = await query.orderBy("name").execute();
  const failures = await ctx.db
    .selectFrom("report_failures")
    .selectAll()
    .where("project_id", "=", q.projectId)
    .where("country_code", "=", q.countryCode)
    .where("period", "=", q.period)
    .orderBy("stem")
    .execute();
  const folder = `${q.countryCode.toLowerCase()}/${q.projectId}/${q.period}`;
  const failed: ReportView[] = failures
    .map((f) => {
      const name = f.stem ? `${f.stem} (failed)` : "(month)";
      return {
        id: `${folder}/${f.stem || "*"}`,
        name,
        created_at: new Date(f.first_seen_at).toISOString(),
        updated_at: new Date(f.last_seen_at).toISOString(),
        path: `${folder}/${f.stem || "*"}`,
        countryCode: f.country_code,
        period: f.period,
        userId: f.user_id,
        kind: f.kind,
        version: 0,
        status: "failed" as const,
        size: 0,
        sha256: null,
        filedAt: null,
        folio: null,
        reason: f.reason,
        code: f.code,
        field: f.field,
      };
    })
    .filter(
      (f) =>
        !q.search ||
        [f.name, f.userId ?? ""].some((s) => s.toLowerCase().includes((q.search as string).toLowerCase())),
    );
  return [...rows.map(view), ...failed].slice(q.offset, q.offset + q.limit);
}

export interface StoredReport extends ReportView {
  storageKey: string;
  mediaType: string;
}

/** A report of the project by its path, or 404 (also for a path outside the project's folders). */
export async function findReport(
  ctx: ReportsContext,
  projectId: number,
  path: string,
): Promise<StoredReport> {
  const country = path.slice(0, 2);
  if (!JURISDICTION_CODES.includes(country.toUpperCase()) || !isUnder(path, `${country}/${projectId}`))
    throw notFound("Report");
  const row = await ctx.db
    .selectFrom("reports")
    .select(COLUMNS)
    .where("project_id", "=", projectId)
    .where("path", "=", path)
    .executeTakeFirst();
  if (!row) throw notFound("Report");
  return { ...view(row), storageKey: row.storage_key, mediaType: row.media_type };
}

/** A report by its path whoever's it is (the signed-URL route: the signature is the authority). */
export async function findByPath(ctx: ReportsContext, path: string): Promise<StoredReport | undefined> {
  const row = await ctx.db.selectFrom("reports").select(COLUMNS).where("path", "=", path).executeTakeFirst();
  return row ? { ...view(row), storageKey: row.storage_key, mediaType: row.media_type } : undefined;
}

/**
 * Marks a report filed with the regulator (with the folio it gave, when known): from then on its month's
 * generations never change it. Filing again only records a folio that was missing.
 */
export async function markFiled(
  ctx: ReportsContext,
  projectId: number,
  path: string,
  folio: string | undefined,
  actor: string,
): Promise<ReportView> {
  const report = await findReport(ctx, projectId, path);
  if (report.status === "filed" && (folio === undefined || folio === report.folio)) return report;
  if (report.status === "filed" && report.folio && folio !== report.folio)
    throw new AppError("conflict", `This report was filed with the folio ${report.folio}`);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("reports")
      .set({
        status: "filed",
        ...(report.status === "filed" ? {} : { filed_at: new Date(ctx.now()), filed_by: actor }),
        ...(folio !== undefined ? { folio } : {}),
      })
      .where("project_id", "=", projectId)
      .where("path", "=", path)
      .execute();
    await writeAudit(trx, {
      projectId,
      actor,
      action: "reports.filed",
      target: path,
      details: { sha256: report.sha256, ...(folio !== undefined ? { folio } : {}) },
    });
  });
  await closeAvisoAlerts(ctx, projectId, path, folio ?? report.folio ?? undefined, actor);
  return findReport(ctx, projectId, path);
}

/**
 * The alerts a filed 24-hour aviso answers, closed as `reported`: those an aviso from knowledge names, and those of
 * the transfer a transfer's aviso reports that wait on it.
 */
async function closeAvisoAlerts(
  ctx: ReportsContext,
  projectId: number,
  path: string,
  folio: string | undefined,
  actor: string,
): Promise<void> {
  const country = path.split("/")[0]?.toUpperCase();
  if (!country) return;
  const reference = folio ?? path;
  const at = new Date(ctx.now());
  const known = /\.24h\.([0-9A-F]{14})(\.v\d+)?\.xml$/.exec(path)?.[1];
  const aviso = known ? await avisoByReference(ctx.db, projectId, country, known) : undefined;
  if (aviso) await closeReported(ctx.db, projectId, aviso.alertIds, reference, actor, at);
  const row = await ctx.db
    .selectFrom("reports")
    .select(["kind", "tx_hash"])
    .where("project_id", "=", projectId)
    .where("path", "=", path)
    .executeTakeFirst();
  if (row?.kind === "urgent" && row.tx_hash) {
    const waiting = await alertsAwaitingTransfers(ctx.db, projectId, `${country}-URGENT`, [row.tx_hash]);
    // An alert is reported once the aviso of every transfer or operation it waits on is filed, not at the first.
    const hashes = [...new Set(waiting.flatMap((w) => w.txHashes))];
    const filed = new Set(
      hashes.length === 0
        ? []
        : (
            await ctx.db
              .selectFrom("reports")
              .select("tx_hash")
              .where("project_id", "=", projectId)
              .where("country_code", "=", country)
              .where("kind", "=", "urgent")
              .where("status", "=", "filed")
              .where("tx_hash", "in", hashes)
              .execute()
          ).map((r) => r.tx_hash),
    );
    const answered = waiting.filter((w) => w.txHashes.every((h) => filed.has(h))).map((w) => w.id);
    await closeReported(ctx.db, projectId, answered, reference, actor, at);
  }
}

export interface GenerationView {
  id: number;
  countryCode: CountryCode;
  period: string;
  trigger: string;
  actor: string;
  status: "completed" | "failed";
  written: number;
  unchanged: number;
  removed: number;
  problems: GenerationProblem[];
  txHash: string | null;
  startedAt: string;
  finishedAt: string;
}

export async function listGenerations(
  ctx: ReportsContext,
  q: Omit<ListQuery, "search">,
): Promise<GenerationView[]> {
  const rows = await ctx.db
    .selectFrom("report_generations")
    .selectAll()
    .where("project_id", "=", q.projectId)
    .where("country_code", "=", q.countryCode)
    .where("period", "=", q.period)
    .orderBy("id", "desc")
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    countryCode: r.country_code,
    period: r.period,
    trigger: r.trigger,
    actor: r.actor,
    status: r.status,
    written: r.written,
    unchanged: r.unchanged,
    removed: r.removed,
    problems: r.problems,
    txHash: r.tx_hash,
    startedAt: new Date(r.started_at).toISOString(),
    finishedAt: new Date(r.finished_at).toISOString(),
  }));
}
