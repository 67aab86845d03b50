// The filing calendar (GET /reports/calendar): every filing a project owes for a period, by jurisdiction, with its
// deadline and state. A jurisdiction lists its filings (src/jurisdictions' `calendar`: Mexico's monthly AVI by day
// 17, Colombia's transactions report and report of absence of suspicious operations within 20 days), and each
// urgent aviso (Mexico's 24 hours) is a filing of its own, due 24 hours after the checker found it. States:
//  - filed: every file of the filing is marked filed (POST /reports/{id}/filed), or an officer recorded the filing
//    (POST /reports/calendar/filed, for a filing Vigía writes no file for);
//  - generated: its files are written and none failed (a month with nothing to report counts, with no file);
//  - pending: not generated yet, or some file could not be (`failures`);
//  - overdue: not filed, and its deadline has passed. Overdue filings are a metric (vigia_filings_overdue) and an
//    alert (deploy/prometheus/alerts.yml).
import { avisosOfMonth } from "../avisos/index.ts";
import {
  basisVersionOn,
  type FileKind,
  type FilingDefinition,
  type Jurisdiction,
  jurisdiction,
  jurisdictionsOf,
} from "../jurisdictions/index.ts";
import { AppError, invalid } from "../platform/errors.ts";
import { zonedDay, zonedIso } from "../platform/time-zone.ts";
import {
  projectCreatedAt,
  projectJurisdictions,
  projectsWithJurisdictions,
  writeAudit,
} from "../projects/index.ts";
import { operationIdOfHash } from "../regulation/index.ts";
import type { ReportsContext } from "./context.ts";
import { periodOf, previousPeriod } from "./period.ts";
import { owedUrgent } from "./urgent.ts";

export type FilingState = "pending" | "generated" | "filed" | "overdue";

export interface FilingView {
  countryCode: string;
  period: string;
  /** the jurisdiction's id of the filing; `<id>:<txHash>` for an urgent aviso */
  filing: string;
  name: string;
  deadline: string;
  /** the deadline on the jurisdiction's wall clock, with its offset (`2026-12-17T23:59:59-06:00`) */
  deadlineLocal: string;
  /** the jurisdiction's IANA time zone, in which its law counts days and hours */
  timeZone: string;
  source: string;
  /** false when the deadline was read in secondary sources, not the law's own text */
  verified: boolean;
  state: FilingState;
  /** the folio of the filing, where one was recorded */
  folio: string | null;
  files: { path: string; status: "draft" | "filed"; folio: string | null }[];
  /** files of this filing that could not be written, with why */
  failures: { userId: string | null; reason: string; field: string | null }[];
}

interface MonthState {
  files: {
    kind: string;
    path: string;
    status: "draft" | "filed";
    folio: string | null;
    tx_hash: string | null;
  }[];
  failures: { kind: string; stem: string; user_id: string | null; reason: string; field: string | null }[];
  generated: boolean;
  marks: Map<string, string | null>;
}

async function monthState(
  ctx: ReportsContext,
  projectId: number,
  code: string,
  period: string,
): Promise<MonthState> {
  const files = await ctx.db
    .selectFrom("reports as r")
    .select(["r.kind", "r.path", "r.status", "r.folio", "r.tx_hash", "r.version", "r.name"])
    .where("r.project_id", "=", projectId)
    .where("r.country_code", "=", code)
    .where("r.period", "=", period)
    .orderBy("r.version")
    .execute();
  const failures = await ctx.db
    .selectFrom("report_failures")
    .select(["kind", "stem", "user_id", "reason", "field"])
    .where("project_id", "=", projectId)
    .where("country_code", "=", code)
    .where("period", "=", period)
    .execute();
  const generation = await ctx.db
    .selectFrom("report_generations")
    .select("id")
    .where("project_id", "=", projectId)
    .where("country_code", "=", code)
    .where("period", "=", period)
    .where("trigger", "<>", "urgent")
    .where("status", "=", "completed")
    .limit(1)
    .executeTakeFirst();
  const marks = await ctx.db
    .selectFrom("filing_marks")
    .select(["filing", "folio"])
    .where("project_id", "=", projectId)
    .where("country_code", "=", code)
    .where("period", "=", period)
    .execute();
  return {
    files,
    failures,
    generated: generation !== undefined,
    marks: new Map(marks.map((m) => [m.filing, m.folio])),
  };
}

/** A file's stem: its name without the version and the extension. */
const fileStem = (path: string) =>
  path
    .slice(path.lastIndexOf("/") + 1)
    .replace(/\.[a-z]+$/, "")
    .replace(/\.v\d+$/, "");

/** The state of a filing from its files (the latest version of each), failures and mark. */
function stateOf(
  files: MonthState["files"],
  failures: number,
  generated: boolean,
  marked: boolean,
  deadline: Date,
  now: number,
): FilingState {
  const latest = new Map<string, MonthState["files"][number]>();
  for (const f of files) latest.set(f.path.replace(/\.v\d+(\.[a-z]+)$/, "$1"), f);
  const allFiled = latest.size > 0 && [...latest.values()].every((f) => f.status === "filed");
  if (marked || (allFiled && failures === 0)) return "filed";
  // Generated, with nothing to file: nothing can be late.
  if (latest.size === 0 && generated && failures === 0) return "generated";
  if (now > deadline.getTime()) return "overdue";
  return latest.size > 0 && failures === 0 ? "generated" : "pending";
}

function monthlyFiling(
  j: Jurisdiction,
  period: string,
  def: FilingDefinition,
  m: MonthState,
  now: number,
): FilingView {
  const kinds = def.fileKinds as readonly FileKind[] | null;
  const files = kinds ? m.files.filter((f) => kinds.includes(f.kind as FileKind)) : [];
  const failures = kinds ? m.failures.filter((f) => kinds.includes(f.kind as FileKind)) : [];
  const marked = m.marks.has(def.id);
  return {
    countryCode: j.code,
    period,
    filing: def.id,
    name: def.name,
    deadline: def.deadline.toISOString(),
    deadlineLocal: zonedIso(def.deadline, j.timeZone),
    timeZone: j.timeZone,
    source: def.source,
    verified: def.verified ?? true,
    state: kinds
      ? stateOf(files, failures.length, m.generated, marked, def.deadline, now)
      : marked
        ? "filed"
        : now > def.deadline.getTime()
          ? "overdue"
          : "pending",
    folio: m.marks.get(def.id) ?? null,
    files: files.map((f) => ({ path: f.path, status: f.status, folio: f.folio })),
    failures: failures.map((f) => ({ userId: f.user_id, reason: f.reason, field: f.field })),
  };
}

/** One 24-hour aviso as a filing of the month: its file's slot (the stem), its deadline and state. */
function urgentFiling(
  j: Jurisdiction,
  period: string,
  m: MonthState,
  now: number,
  a: { stem: string; name: string; deadline: Date; source: string },
): FilingView {
  const files = m.files.filter((f) => f.kind === "urgent" && fileStem(f.path) === a.stem);
  const failures = m.failures.filter((f) => f.kind === "urgent" && f.stem === a.stem);
  const id = `${j.code}-URGENT:${a.stem}`;
  return {
    countryCode: j.code,
    period,
    filing: id,
    name: a.name,
    deadline: a.deadline.toISOString(),
    deadlineLocal: zonedIso(a.deadline, j.timeZone),
    timeZone: j.timeZone,
    source: a.source,
    verified: true,
    state: stateOf(files, failures.length, false, m.marks.has(id), a.deadline, now),
    folio: m.marks.get(id) ?? null,
    files: files.map((f) => ({ path: f.path, status: f.status, folio: f.folio })),
    failures: failures.map((f) => ({ userId: f.user_id, reason: f.reason, field: f.field })),
  };
}

/** The avisos of the month due from knowledge (a client found on a list): one filing each. */
async function knownFilings(
  ctx: ReportsContext,
  projectId: number,
  j: Jurisdiction,
  period: string,
  m: MonthState,
  now: number,
): Promise<FilingView[]> {
  const urgent = j.urgent;
  if (!urgent) return [];
  // An aviso whose client turned out to be governed elsewhere is owed no file here.
  const avisos = (await avisosOfMonth(ctx.db, projectId, j.code, period)).filter((a) => a.owed);
  return avisos.map((a) => {
    const basis = urgent.bases.find((b) => b.id === a.basis);
    const day = zonedDay(a.knownAt, j.timeZone);
    const version = basisVersionOn(basis, day);
    const what = a.listing
      ? `on the ${a.listing.list} list, entry ${a.listing.entryId}`
      : (basis?.name ?? a.basis);
    return urgentFiling(j, period, m, now, {
      stem: urgent.knownStemOf(a),
      name: `24-hour aviso of user ${a.userId} (${a.basis}: ${what}; known ${a.knownAt.toISOString()})`,
      deadline: a.deadline,
      source: version?.source ?? "LFPIORPI Art. 18 fracción VI",
    });
  });
}

async function urgentFilings(
  ctx: ReportsContext,
  projectId: number,
  j: Jurisdiction,
  period: string,
  m: MonthState,
  now: number,
): Promise<FilingView[]> {
  const urgent = j.urgent;
  if (!urgent) return [];
  const transfers = await owedUrgent(ctx, projectId, j, period);
  return transfers.map((t) =>
    // One filing per aviso, named by its file's stem (two transfers of one transaction are two avisos).
    urgentFiling(j, period, m, now, {
      stem: urgent.stemOf(t),
      name: `24-hour aviso of ${operationIdOfHash(t.txHash) !== undefined ? `exchange operation ${operationIdOfHash(t.txHash)}` : `transaction ${t.txHash}`} (user ${t.userId}; ${t.laws.filter((l) => urgent.rules.includes(l)).join(", ")})`,
      deadline: new Date(t.evaluatedAt.getTime() + urgent.dueWithinMs),
      source: "LFPIORPI Art. 18 fracción VI",
    }),
  );
}

/** The filings a project owes for a period, for its enabled jurisdictions (or one of them). */
export async function filingCalendar(
  ctx: ReportsContext,
  projectId: number,
  period: string,
  countryCode?: string,
): Promise<FilingView[]> {
  const enabled = await projectJurisdictions(ctx.db, projectId);
  const wanted = countryCode ? enabled.filter((c) => c === countryCode) : enabled;
  const createdAt = await projectCreatedAt(ctx.db, projectId);
  const now = ctx.now();
  const out: FilingView[] = [];
  for (const j of jurisdictionsOf(wanted)) {
    // Nothing is owed for a month before the project existed (as vigia_filings_overdue counts).
    if (createdAt && period < periodOf(createdAt, j.timeZone)) continue;
    const m = await monthState(ctx, projectId, j.code, period);
    for (const def of j.calendar(period)) out.push(monthlyFiling(j, period, def, m, now));
    out.push(...(await urgentFilings(ctx, projectId, j, period, m, now)));
    out.push(...(await knownFilings(ctx, projectId, j, period, m, now)));
  }
  return out;
}

/** Records that an officer made a filing (its folio when given), for the filings Vigía writes no file for. */
export async function markFilingFiled(
  ctx: ReportsContext,
  q: {
    projectId: number;
    countryCode: string;
    period: string;
    filing: string;
    folio?: string;
    actor: string;
  },
): Promise<FilingView> {
  const j = jurisdiction(q.countryCode);
  const enabled = await projectJurisdictions(ctx.db, q.projectId);
  if (!j || !enabled.includes(j.code))
    throw invalid(`The project does not enable ${q.countryCode}`, [
      { path: "/countryCode", message: "not enabled" },
    ]);
  const calendar = await filingCalendar(ctx, q.projectId, q.period, j.code);
  const found = calendar.find((f) => f.filing === q.filing);
  if (!found)
    throw invalid(`No filing ${q.filing} is due for ${j.code} in ${q.period}`, [
      { path: "/filing", message: `one of ${calendar.map((f) => f.filing).join(", ") || "(none)"}` },
    ]);
  if (found.folio && q.folio && found.folio !== q.folio)
    throw new AppError("conflict", `This filing was recorded with the folio ${found.folio}`);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("filing_marks")
      .values({
        project_id: q.projectId,
        country_code: j.code,
        period: q.period,
        filing: q.filing,
        folio: q.folio ?? null,
        filed_at: new Date(ctx.now()),
        filed_by: q.actor,
      })
      .onConflict((oc) =>
        oc
          .columns(["project_id", "country_code", "period", "filing"])
          .doUpdateSet({ folio: q.folio ?? found.folio }),
      )
      .execute();
    await writeAudit(trx, {
      projectId: q.projectId,
      actor: q.actor,
      action: "reports.filing_recorded",
      target: `${j.code.toLowerCase()}/${q.projectId}/${q.period}/${q.filing}`,
      details: q.folio ? { folio: q.folio } : {},
    });
  });
  return (await filingCalendar(ctx, q.projectId, q.period, j.code)).find(
    (f) => f.filing === q.filing,
  ) as FilingView;
}

/** How many filings are overdue now, by jurisdiction, over every project and the last `months` periods. */
export async function overdueFilings(ctx: ReportsContext, months = 3): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const project of await projectsWithJurisdictions(ctx.db)) {
    for (const j of jurisdictionsOf(project.jurisdictions)) {
      // This month (its 24-hour avisos) and the `months` before it (their monthly filings), none before the
      // project's own first month.
      const first = periodOf(project.createdAt, j.timeZone);
      let period = periodOf(new Date(ctx.now()), j.timeZone);
      for (let i = 0; i <= months && period >= first; i++) {
        for (const f of await filingCalendar(ctx, project.id, period, j.code))
          if (f.state === "overdue") counts.set(j.code, (counts.get(j.code) ?? 0) + 1);
        period = previousPeriod(period);
      }
    }
  }
  return counts;
}

/** How many months before a span a filing due in it can belong to (Mexico's monthly AVI: the month before). */
const SPAN_LOOKBACK_MONTHS = 2;
/** The longest span one request reads: a quarter of weeks to come, or a year looking back. */
export const MAX_SPAN_DAYS = 400;

/**
 * The filings whose deadline falls in [from, to] (instants), across months: the coming weeks' work, soonest first.
 * Each period from a little before `from` to `to` is read in each of the project's jurisdictions.
 */
export async function filingsDueBetween(
  ctx: ReportsContext,
  projectId: number,
  from: Date,
  to: Date,
  countryCode?: string,
): Promise<FilingView[]> {
  const periods = new Set<string>();
  const enabled = await projectJurisdictions(ctx.db, projectId);
  for (const j of jurisdictionsOf(countryCode ? enabled.filter((c) => c === countryCode) : enabled)) {
    let period = periodOf(to, j.timeZone);
    const first = periodOf(from, j.timeZone);
    for (let back = 0; back < SPAN_LOOKBACK_MONTHS; back++) periods.add(previousPeriodN(first, back + 1));
    for (;;) {
      periods.add(period);
      if (period <= first) break;
      period = previousPeriod(period);
    }
  }
  const out: FilingView[] = [];
  for (const period of [...periods].sort())
    for (const f of await filingCalendar(ctx, projectId, period, countryCode)) {
      const at = Date.parse(f.deadline);
      if (at >= from.getTime() && at <= to.getTime()) out.push(f);
    }
  return out.sort((a, b) => a.deadline.localeCompare(b.deadline) || a.filing.localeCompare(b.filing));
}

function previousPeriodN(period: string, n: number): string {
  let p = period;
  for (let i = 0; i < n; i++) p = previousPeriod(p);
  return p;
}
