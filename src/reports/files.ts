// Writes a generation's files with their versions (docs/reports/README.md, "Versions"): a file not yet filed (a
// draft) is replaced by the next generation of its month; a filed file never changes, and what changes after it
// becomes a new version (`<userId>.v2.xml`, ...). Drafts of slots no longer reportable are removed. The monthly
// files and the urgent avisos (one slot at a time) go through here alike. A slot that could not be written is
// recorded as a failure (report_failures) in the same transaction, and a slot written loses its failure.
//
// The bytes go to the store first, under a key that includes their hash; the rows switch to them in one
// transaction, under a lock on the month, after checking that nobody else changed the month's rows meanwhile (then
// the whole write is planned again); replaced bytes are deleted after the commit. A crash at any point leaves every
// row pointing at complete bytes.
import crypto from "node:crypto";
import { type ClientFile, type FiledAviso, type Refused, userStem } from "../jurisdictions/index.ts";
import { seal } from "../platform/crypto/secrets.ts";
import { namedLock } from "../platform/db/advisory.ts";
import type { ReportsContext } from "./context.ts";
import type {
  CountryCode,
  GenerationProblem,
  GenerationTrigger,
  ReportKind,
  ReportsTable,
} from "./tables.ts";

export interface Month {
  projectId: number;
  countryCode: CountryCode;
  period: string;
}

export interface Scope extends Month {
  /** the kinds of file this write owns: the month's (monthly, zero) or one urgent aviso's */
  kinds: readonly ReportKind[];
  /** the candidates are every slot of these kinds: drafts and failures of other slots go */
  complete: boolean;
  /** stems owed no file any more (an urgent aviso whose client another jurisdiction governs): their failures go */
  settled?: readonly string[];
}

/** A file that could not be written, as report_failures keeps it. */
export interface Failure {
  kind: ReportKind;
  /** the slot's stem ('' for a problem of the whole month) */
  stem: string;
  userId: string | null;
  code: string;
  reason: string;
  field: string | null;
  blocks: string;
  /** first seen by this generation, or its reason changed since the last one */
  isNew: boolean;
}

export interface WrittenFile {
  kind: ReportKind;
  path: string;
  name: string;
  version: number;
  /** written: new bytes; unchanged: the stored file already says this */
  outcome: "written" | "unchanged";
}

export interface WriteResult {
  generationId: number;
  /** failed: nothing could be written and some file failed */
  status: "completed" | "failed";
  files: WrittenFile[];
  removed: string[];
  problems: GenerationProblem[];
  /** the slots that could not be written */
  failures: Failure[];
}

type Row = Pick<ReportsTable, "kind" | "user_id" | "path" | "storage_key" | "sha256" | "folio"> & {
  id: string;
  version: number;
  status: "draft" | "filed";
  entries: unknown;
  updated_at: Date | string;
};

const slotOf = (kind: ReportKind, stem: string) => `${kind}:${stem}`;
export const folderOf = (s: Month) => `${s.countryCode.toLowerCase()}/${s.projectId}/${s.period}`;

/** The stem of a file's slot: the stem of its name without the version (`u-1.v2.xml` is `u-1`). */
export const stemOf = (row: Pick<Row, "path">) => {
  const name = row.path.slice(row.path.lastIndexOf("/") + 1);
  return name.slice(0, name.lastIndexOf(".")).replace(/\.v\d+$/, "");
};
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
    .where("kind", "in", [...s.kinds])
    .orderBy("version")
    .execute();
}

const fingerprint = (rows: Row[]) =>
  rows
    .map((r) => `${r.id}:${r.status}:${r.sha256}:${new Date(r.updated_at).getTime()}`)
    .sort()
    .join(",");

interface Planned {
  candidate: ClientFile;
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
  failures: Omit<Failure, "isNew">[];
  seen: string;
}

/** A file the jurisdiction could not build, or a problem of the whole month. */
export type Unbuilt = Refused & { stem?: string };

async function plan(
  ctx: ReportsContext,
  s: Scope,
  candidates: ClientFile[],
  refused: Unbuilt[],
): Promise<Plan> {
  const rows = await monthRows(ctx, s);
  const bySlot = new Map<string, Row[]>();
  for (const r of rows) {
    const slot = slotOf(r.kind, stemOf(r));
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), r]);
  }
  const folder = folderOf(s);
  const out: Plan = { writes: [], unchanged: [], removals: [], failures: [], seen: fingerprint(rows) };
  const fail = (kind: ReportKind, stem: string, userId: string | null, f: Omit<Refused, "kind" | "userId">) =>
    out.failures.push({
      kind,
      stem,
      userId,
      code: f.code,
      reason: f.reason,
      field: f.field ?? null,
      blocks: f.blocks,
    });
  const wanted = new Set<string>();
  for (const r of refused) {
    const stem = r.stem ?? (r.userId === null ? "" : userStem(r.userId));
    wanted.add(slotOf(r.kind, stem));
    fail(r.kind, stem, r.userId, r);
  }
  for (const c of candidates) {
    const slot = slotOf(c.kind, c.stem);
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
    const blocks = `${c.stem}.${c.extension} of ${s.period}`;
    if (!rendered.ok) {
      fail(c.kind, c.stem, c.userId, { code: "invalid_file", reason: rendered.reason, blocks });
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
      fail(c.kind, c.stem, c.userId, {
        code: "invalid_file",
        reason: `the file does not validate against its schema: ${errors.slice(0, 3).join("; ")}`,
        blocks,
      });
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
  if (s.complete)
    for (const [slot, versions] of bySlot) {
      const latest = versions.at(-1);
      if (!wanted.has(slot) && latest?.status === "draft") out.removals.push(latest);
    }
  return out;
}

function fileOf(row: Pick<Row, "kind" | "path" | "version">, outcome: WrittenFile["outcome"]): WrittenFile {
  return {
    kind: row.kind,
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
  /** the transfer an urgent aviso is about (kept with the generation and the file) */
  transfer?: { addressId: number; chainId: number; txHash: string; logIndex: number };
}

/** Plans and writes a generation's files, and records the generation; retried when the month changed under it. */
export async function writeFiles(
  ctx: ReportsContext,
  s: Scope,
  candidates: ClientFile[],
  refused: Unbuilt[],
  meta: GenerationMeta,
  extraProblems: GenerationProblem[] = [],
): Promise<WriteResult> {
  for (let attempt = 0; ; attempt++) {
    const p = await plan(ctx, s, candidates, refused);
    for (const w of p.writes) await ctx.store.put(w.storageKey, w.content);
    try {
      const result = await commit(ctx, s, p, meta, extraProblems);
      for (const key of result.obsoleteKeys)
        await ctx.store.delete(key).catch((error) =>
          // The rows no longer point at these bytes: left behind, they only take room.
          ctx.log?.error({ err: error, key }, `report files: an obsolete file could not be deleted: ${key}`),
        );
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
    await namedLock(`reports:${folderOf(s)}`).execute(trx);
    const now = await monthRows({ ...ctx, db: trx }, s);
    if (fingerprint(now) !== p.seen) throw new MonthChanged();
    const failures = await recordFailures(trx, s, p, new Date(ctx.now()));
    const problems = [
      ...extraProblems,
      ...p.failures.map((f) => ({
        ...(f.userId ? { userId: f.userId } : {}),
        reason: f.reason,
        code: f.code,
        ...(f.field ? { field: f.field } : {}),
        blocks: f.blocks,
      })),
    ];
    const status = p.writes.length + p.unchanged.length === 0 && failures.length > 0 ? "failed" : "completed";
    const { id: generationId } = await trx
      .insertInto("report_generations")
      .values({
        project_id: s.projectId,
        country_code: s.countryCode,
        period: s.period,
        trigger: meta.trigger,
        actor: meta.actor,
        status,
        written: p.writes.length,
        unchanged: p.unchanged.length,
        removed: p.removals.length,
        problems: JSON.stringify(problems),
        started_at: meta.startedAt,
        ...transferColumns(meta),
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
        profile_enc: w.candidate.profile ? seal(ctx.serverKeys, JSON.stringify(w.candidate.profile)) : null,
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
            ...transferColumns(meta),
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
      status,
      files: [
        ...p.writes.map((w) => ({
          kind: w.candidate.kind,
          path: w.path,
          name: w.name,
          version: w.version,
          outcome: "written" as const,
        })),
        ...p.unchanged,
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
      removed: p.removals.map((r) => r.path).sort(),
      problems,
      failures,
    };
    await meta.audit(trx, written);
    return { written, obsoleteKeys };
  });
}

/** The transfer columns of an urgent aviso's generation and file. */
function transferColumns(meta: GenerationMeta) {
  const t = meta.transfer;
  return t
    ? { address_id: String(t.addressId), chain_id: t.chainId, tx_hash: t.txHash, log_index: t.logIndex }
    : {};
}

/**
 * Keeps report_failures in step with the plan: each failing slot upserted (its first sighting kept), the failures
 * of slots now written deleted, and, for a complete write, those of slots no longer wanted. Which failures are new
 * (or changed reason) decides what is notified.
 */
async function recordFailures(trx: ReportsContext["db"], s: Scope, p: Plan, at: Date): Promise<Failure[]> {
  const before = await trx
    .selectFrom("report_failures")
    .select(["kind", "stem", "reason"])
    .where("project_id", "=", s.projectId)
    .where("country_code", "=", s.countryCode)
    .where("period", "=", s.period)
    .where("kind", "in", [...s.kinds])
    .execute();
  const known = new Map(before.map((r) => [slotOf(r.kind, r.stem), r.reason]));
  const failing = new Set(p.failures.map((f) => slotOf(f.kind, f.stem)));
  const succeeded = new Set([
    ...p.writes.map((w) => slotOf(w.candidate.kind, w.candidate.stem)),
    ...p.unchanged.map((u) => slotOf(u.kind, stemOf(u))),
  ]);
  for (const r of before) {
    const slot = slotOf(r.kind, r.stem);
    if (failing.has(slot) || !(s.complete || succeeded.has(slot) || s.settled?.includes(r.stem))) continue;
    await trx
      .deleteFrom("report_failures")
      .where("project_id", "=", s.projectId)
      .where("country_code", "=", s.countryCode)
      .where("period", "=", s.period)
      .where("kind", "=", r.kind)
      .where("stem", "=", r.stem)
      .execute();
  }
  const out: Failure[] = [];
  for (const f of p.failures) {
    await trx
      .insertInto("report_failures")
      .values({
        project_id: s.projectId,
        country_code: s.countryCode,
        period: s.period,
        kind: f.kind,
        stem: f.stem,
        user_id: f.userId,
        code: f.code,
        reason: f.reason,
        field: f.field,
        blocks: f.blocks,
        first_seen_at: at,
        last_seen_at: at,
      })
      .onConflict((oc) =>
        oc.columns(["project_id", "country_code", "period", "kind", "stem"]).doUpdateSet({
          user_id: f.userId,
          code: f.code,
          reason: f.reason,
          field: f.field,
          blocks: f.blocks,
          last_seen_at: at,
        }),
      )
      .execute();
    out.push({ ...f, isNew: known.get(slotOf(f.kind, f.stem)) !== f.reason });
  }
  return out;
}
