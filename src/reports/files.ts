// Writes a generation's files with their versions (docs/reports/README.md, "Versions"): a file not yet filed (a
// draft) is replaced by the next generation of its month; a filed file never changes, and what changes after it
// becomes a new version (`<userId>.v2.xml`, ...). Drafts of slots no longer reportable are removed.
//
// The bytes go to the store first, under a key that includes their hash; the rows switch to them in one
// transaction, under a lock on the month, after checking that nobody else changed the month's rows meanwhile (then
// the whole write is planned again); replaced bytes are deleted after the commit. A crash at any point leaves every
// row pointing at complete bytes.
import crypto from "node:crypto";
import { sql } from "kysely";
import { seal } from "../platform/crypto/secrets.ts";
import type { Candidate, FiledAviso, Refused } from "./candidate.ts";
import type { ReportsContext } from "./context.ts";
import type {
  CountryCode,
  GenerationProblem,
  GenerationTrigger,
  ReportKind,
  ReportsTable,
} from "./tables.ts";

export interface Scope {
  projectId: number;
  countryCode: CountryCode;
  period: string;
}

export interface WrittenFile {
  path: string;
  name: string;
  version: number;
  /** written: new bytes; unchanged: the stored file already says this */
  outcome: "written" | "unchanged";
}

export interface WriteResult {
  generationId: number;
  files: WrittenFile[];
  removed: string[];
  problems: GenerationProblem[];
}

type Row = Pick<ReportsTable, "kind" | "user_id" | "path" | "storage_key" | "sha256" | "folio"> & {
  id: string;
  version: number;
  status: "draft" | "filed";
  entries: unknown;
  updated_at: Date | string;
};

const slotOf = (kind: ReportKind, userId: string | null) => `${kind}:${userId ?? ""}`;
export const folderOf = (s: Scope) => `${s.countryCode.toLowerCase()}/${s.projectId}/${s.period}`;
const sha256 = (content: Buffer) => crypto.createHash("sha256").update(content).digest("hex");

function monthRows(ctx: ReportsContext, s: Scope): Promise<Row[]> {
  return ctx.db
    .selectFrom("reports")
    .select([
      "id",
      "kind",
      "user_id",
      "version",
      "path",
      "storage_key",
      "sha256",
      "status",
      "folio",
      "entries",
      "updated_at",
    ])
    .where("project_id", "=", s.projectId)
    .where("country_code", "=", s.countryCode)
    .where("period", "=", s.period)
    .where("kind", "in", ["monthly", "zero"])
    .orderBy("version")
    .execute();
}

const fingerprint = (rows: Row[]) =>
  rows
    .map((r) => `${r.id}:${r.status}:${r.sha256}:${new Date(r.updated_at).getTime()}`)
    .sort()
    .join(",");

interface Planned {
  candidate: Candidate;
  replace: Row | undefined;
  version: number;
  path: string;
  name: string;
  storageKey: string;
  content: Buffer;
  sha: string;
  entries: unknown[];
}

interface Plan {
  writes: Planned[];
  unchanged: WrittenFile[];
  removals: Row[];
  problems: GenerationProblem[];
  seen: string;
}

async function plan(
  ctx: ReportsContext,
  s: Scope,
  candidates: Candidate[],
  refused: Refused[],
): Promise<Plan> {
  const rows = await monthRows(ctx, s);
  const bySlot = new Map<string, Row[]>();
  for (const r of rows)
    bySlot.set(slotOf(r.kind, r.user_id), [...(bySlot.get(slotOf(r.kind, r.user_id)) ?? []), r]);
  const folder = folderOf(s);
  const out: Plan = { writes: [], unchanged: [], removals: [], problems: [], seen: fingerprint(rows) };
  const wanted = new Set(refused.map((r) => slotOf(r.kind, r.userId)));
  for (const r of refused) out.problems.push({ ...(r.userId ? { userId: r.userId } : {}), reason: r.reason });
  for (const c of candidates) {
    const slot = slotOf(c.kind, c.userId);
    wanted.add(slot);
    const versions = bySlot.get(slot) ?? [];
    const latest = versions.at(-1);
    const filedVersions = versions.filter((v) => v.status === "filed");
    let filed: Map<string, FiledAviso> | undefined;
    if (filedVersions.length > 0) {
      filed = new Map();
      for (const v of filedVersions)
        for (const e of v.entries as { reference: string; digest: string }[])
          filed.set(e.reference, { digest: e.digest, folio: v.folio });
    }
    const rendered = c.render(filed);
    const problem = (reason: string) =>
      out.problems.push({ ...(c.userId ? { userId: c.userId } : {}), reason });
    if (!rendered.ok) {
      problem(rendered.reason);
      continue;
    }
    const lastFiled = filedVersions.at(-1);
    const content = rendered.content;
    const sha = content ? sha256(content) : undefined;
    // Nothing new since the filing (or the draft already holds these bytes).
    if (
      !content ||
      (latest?.status === "filed" && sha === latest.sha256) ||
      (lastFiled && sha === lastFiled.sha256)
    ) {
      if (latest?.status === "draft" && latest !== lastFiled) out.removals.push(latest);
      if (lastFiled) out.unchanged.push(fileOf(lastFiled, "unchanged"));
      continue;
    }
    if (latest?.status === "draft" && latest.sha256 === sha) {
      out.unchanged.push(fileOf(latest, "unchanged"));
      continue;
    }
    const errors = c.validate ? await c.validate(content) : [];
    if (errors.length > 0) {
      problem(`the file does not validate against its schema: ${errors.slice(0, 3).join("; ")}`);
      continue;
    }
    const replace = latest?.status === "draft" ? latest : undefined;
    const version = replace ? replace.version : (latest?.version ?? 0) + 1;
    const name = `${c.stem}${version > 1 ? `.v${version}` : ""}.${c.extension}`;
    out.writes.push({
      candidate: c,
      replace,
      version,
      name,
      path: `${folder}/${name}`,
      storageKey: `${folder}/${c.stem}${version > 1 ? `.v${version}` : ""}.${(sha as string).slice(0, 16)}.${c.extension}`,
      content,
      sha: sha as string,
      entries: "entries" in rendered ? rendered.entries : [],
    });
  }
  for (const [slot, versions] of bySlot) {
    const latest = versions.at(-1);
    if (!wanted.has(slot) && latest?.status === "draft") out.removals.push(latest);
  }
  return out;
}

function fileOf(row: Pick<Row, "path" | "version">, outcome: WrittenFile["outcome"]): WrittenFile {
  return {
    path: row.path,
    name: row.path.slice(row.path.lastIndexOf("/") + 1),
    version: row.version,
    outcome,
  };
}

class MonthChanged extends Error {}

export interface GenerationMeta {
  trigger: GenerationTrigger;
  actor: string;
  startedAt: Date;
  /** extra audit details */
  audit: (trx: ReportsContext["db"], result: WriteResult) => Promise<void>;
}

/** Plans and writes a generation's files, and records the generation; retried when the month changed under it. */
export async function writeMonth(
  ctx: ReportsContext,
  s: Scope,
  candidates: Candidate[],
  refused: Refused[],
  meta: GenerationMeta,
  extraProblems: GenerationProblem[] = [],
): Promise<WriteResult> {
  for (let attempt = 0; ; attempt++) {
    const p = await plan(ctx, s, candidates, refused);
    for (const w of p.writes) await ctx.store.put(w.storageKey, w.content);
    try {
      const result = await commit(ctx, s, p, meta, extraProblems);
      for (const key of result.obsoleteKeys) await ctx.store.delete(key).catch(() => {});
      return result.written;
    } catch (error) {
      if (!(error instanceof MonthChanged) || attempt >= 4) throw error;
    }
  }
}

async function commit(
  ctx: ReportsContext,
  s: Scope,
  p: Plan,
  meta: GenerationMeta,
  extraProblems: GenerationProblem[],
): Promise<{ written: WriteResult; obsoleteKeys: string[] }> {
  return ctx.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`vigia-reports:${folderOf(s)}`}))`.execute(trx);
    const now = await monthRows({ ...ctx, db: trx }, s);
    if (fingerprint(now) !== p.seen) throw new MonthChanged();
    const problems = [...extraProblems, ...p.problems];
    const { id: generationId } = await trx
      .insertInto("report_generations")
      .values({
        project_id: s.projectId,
        country_code: s.countryCode,
        period: s.period,
        trigger: meta.trigger,
        actor: meta.actor,
        status: "completed",
        written: p.writes.length,
        unchanged: p.unchanged.length,
        removed: p.removals.length,
        problems: JSON.stringify(problems),
        started_at: meta.startedAt,
        finished_at: new Date(ctx.now()),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const obsoleteKeys: string[] = [];
    const at = new Date(ctx.now());
    for (const w of p.writes) {
      const values = {
        storage_key: w.storageKey,
        sha256: w.sha,
        size: w.content.length,
        media_type: w.candidate.mediaType,
        profile_enc: w.candidate.profile
          ? seal(ctx.keys.serverKeys, JSON.stringify(w.candidate.profile))
          : null,
        entries: JSON.stringify(w.entries),
        generation_id: generationId,
        updated_at: at,
      };
      if (w.replace) {
        await trx.updateTable("reports").set(values).where("id", "=", w.replace.id).execute();
        if (w.replace.storage_key !== w.storageKey) obsoleteKeys.push(w.replace.storage_key);
      } else {
        await trx
          .insertInto("reports")
          .values({
            ...values,
            project_id: s.projectId,
            country_code: s.countryCode,
            period: s.period,
            kind: w.candidate.kind,
            user_id: w.candidate.userId,
            version: w.version,
            name: w.name,
            path: w.path,
            created_at: at,
          })
          .execute();
      }
    }
    for (const r of p.removals) {
      await trx.deleteFrom("reports").where("id", "=", r.id).where("status", "=", "draft").execute();
      obsoleteKeys.push(r.storage_key);
    }
    const written: WriteResult = {
      generationId: Number(generationId),
      files: [
        ...p.writes.map((w) => ({
          path: w.path,
          name: w.name,
          version: w.version,
          outcome: "written" as const,
        })),
        ...p.unchanged,
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
      removed: p.removals.map((r) => r.path).sort(),
      problems,
    };
    await meta.audit(trx, written);
    return { written, obsoleteKeys };
  });
}
