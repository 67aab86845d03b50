// Mexico's 24-hour avisos (prioridad 2; LFPIORPI Art. 18-VI, RCG Arts. 26 Bis to 27): when the checker finds that
// a monitored transfer of a project with Mexico enabled involves a listed counterparty or indicia of illicit
// origin (MX-LIST, MX-24H-SUSP), a file with that one aviso is written at once, not at month end:
// `mx/<projectId>/<YYYY-MM>/<userId>.24h.<reference>.xml`. Worker processes poll for such transfers; one whose
// file cannot be written (no profile, say) is recorded with the reason and tried again an hour later.

import crypto from "node:crypto";
import { sql } from "kysely";
import { getProject, writeAudit } from "../keys/index.ts";
import type { Profile } from "../monitoring/index.ts";
import { seal } from "../platform/crypto/secrets.ts";
import { PollingLoop } from "../platform/polling.ts";
import { MEXICO_TIME_ZONE, MX_URGENT_AVISO_RULES } from "../regulation/index.ts";
import type { ReportsContext } from "./context.ts";
import { ALERT_CODES, type AviAviso, aviFile, avisoReference } from "./mx/avi.ts";
import { MX_XML } from "./mx/monthly.ts";
import { validateAvi } from "./mx/validate.ts";
import { type ReportOperation, readOperations } from "./operations.ts";
import { periodOf } from "./period.ts";
import { profileSource } from "./profiles.ts";
import type { GenerationProblem, ReportEntry } from "./tables.ts";

const RETRY_AFTER_MS = 3600_000;

interface Due {
  project_id: number;
  address_id: string;
  chain_id: number;
  tx_hash: string;
  log_index: number;
}

/** Transfers that need a 24-hour aviso and have none (nor a failed try in the last hour). */
async function due(ctx: ReportsContext, limit: number): Promise<Due[]> {
  const since = new Date(ctx.now() - RETRY_AFTER_MS);
  const { rows } = await sql<Due>`
    SELECT mt.project_id, mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index
    FROM monitored_transfers mt
    JOIN projects p ON p.id = mt.project_id
    WHERE mt.status = 'evaluated' AND mt.laws && ${MX_URGENT_AVISO_RULES}::text[]
      AND p.jurisdictions @> '["MX"]'::jsonb
      AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.kind = 'urgent' AND r.address_id = mt.address_id
        AND r.chain_id = mt.chain_id AND r.tx_hash = mt.tx_hash AND r.log_index = mt.log_index)
      AND NOT EXISTS (SELECT 1 FROM report_generations g WHERE g.trigger = 'urgent' AND g.address_id = mt.address_id
        AND g.chain_id = mt.chain_id AND g.tx_hash = mt.tx_hash AND g.log_index = mt.log_index
        AND g.finished_at > ${since})
    ORDER BY mt.evaluated_at, mt.tx_hash
    LIMIT ${limit}`.execute(ctx.db);
  return rows;
}

/** The aviso's alert: a listed counterparty (4122) or indicia of illicit origin (4114), with the label. */
function alertOf(laws: string[], counterparty: string): AviAviso["alert"] {
  return laws.includes("MX-LIST")
    ? {
        code: ALERT_CODES.listedCounterparty,
        description: `LA CONTRAPARTE ${counterparty} ESTA EN UNA LISTA DE SANCIONES (REGLA MX-LIST)`,
      }
    : {
        code: ALERT_CODES.illicitIndicia,
        description: `LA CONTRAPARTE ${counterparty} TIENE INDICIOS DE ORIGEN ILICITO (REGLA MX-24H-SUSP)`,
      };
}

type Built =
  | { ok: true; xml: string; entries: ReportEntry[]; profile: Profile }
  | { ok: false; problem: GenerationProblem };

/** The 24-hour aviso's XML, checked against the XSD, or the problem that keeps it from being written. */
async function buildUrgent(ctx: ReportsContext, d: Due, op: ReportOperation, period: string): Promise<Built> {
  const project = await getProject(ctx.keys, d.project_id);
  if (!project.mx_reporting_entity)
    return {
      ok: false,
      problem: { reason: "the project has no Mexican reporting entity (`mx_reporting_entity`)" },
    };
  const profile = await (await profileSource(ctx, d.project_id, "MX"))(op.userId);
  if (!profile.ok) return { ok: false, problem: { userId: op.userId, reason: profile.reason } };
  const aviso: AviAviso = {
    prioridad: 2,
    alert: alertOf(op.laws, op.counterparty),
    anchor: op,
    operations: [op],
  };
  const built = aviFile({
    period,
    entity: project.mx_reporting_entity,
    userId: op.userId,
    profile: profile.profile,
    avisos: [aviso],
  });
  if (!built.ok) return { ok: false, problem: { userId: op.userId, reason: built.reason } };
  const check = await validateAvi(built.xml);
  if (!check.valid)
    return {
      ok: false,
      problem: {
        userId: op.userId,
        reason: `the file does not validate against its schema: ${check.errors.slice(0, 3).join("; ")}`,
      },
    };
  return { ok: true, xml: built.xml, entries: built.entries, profile: profile.profile };
}

/** Writes the 24-hour aviso of one transfer; true when written (or already there). */
export async function writeUrgentAviso(ctx: ReportsContext, d: Due): Promise<boolean> {
  const startedAt = new Date(ctx.now());
  const transfer = {
    addressId: Number(d.address_id),
    chainId: d.chain_id,
    txHash: d.tx_hash,
    logIndex: d.log_index,
  };
  const [op] = await readOperations(ctx.db, ctx.registry, {
    projectId: d.project_id,
    transfer,
  });
  if (!op) return false;
  const period = periodOf(op.blockTime, MEXICO_TIME_ZONE);
  const built = await buildUrgent(ctx, d, op, period);
  const generation = (status: "completed" | "failed", problems: GenerationProblem[]) => ({
    project_id: d.project_id,
    country_code: "MX" as const,
    period,
    trigger: "urgent" as const,
    actor: "system",
    status,
    written: status === "completed" ? 1 : 0,
    problems: JSON.stringify(problems),
    address_id: d.address_id,
    chain_id: d.chain_id,
    tx_hash: d.tx_hash,
    log_index: d.log_index,
    started_at: startedAt,
    finished_at: new Date(ctx.now()),
  });
  if (!built.ok) {
    // Recorded, and tried again an hour later (due()).
    await ctx.db
      .insertInto("report_generations")
      .values(generation("failed", [built.problem]))
      .execute();
    return false;
  }
  const folder = `mx/${d.project_id}/${period}`;
  const content = Buffer.from(built.xml);
  const sha = crypto.createHash("sha256").update(content).digest("hex");
  const reference = avisoReference(2, op);
  const name = `${op.userId}.24h.${reference}.xml`;
  const storageKey = `${folder}/${op.userId}.24h.${reference}.${sha.slice(0, 16)}.xml`;
  await ctx.store.put(storageKey, content);
  await ctx.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("report_generations")
      .values(generation("completed", []))
      .returning("id")
      .executeTakeFirstOrThrow();
    const at = new Date(ctx.now());
    await trx
      .insertInto("reports")
      .values({
        project_id: d.project_id,
        country_code: "MX",
        period,
        kind: "urgent",
        user_id: op.userId,
        name,
        path: `${folder}/${name}`,
        storage_key: storageKey,
        media_type: MX_XML,
        sha256: sha,
        size: content.length,
        profile_enc: seal(ctx.keys.serverKeys, JSON.stringify(built.profile)),
        entries: JSON.stringify(built.entries),
        generation_id: id,
        address_id: d.address_id,
        chain_id: d.chain_id,
        tx_hash: d.tx_hash,
        log_index: d.log_index,
        created_at: at,
        updated_at: at,
      })
      // Two workers that raced on one transfer write one file.
      .onConflict((oc) => oc.doNothing())
      .execute();
    await writeAudit(trx, {
      projectId: d.project_id,
      actor: "system",
      action: "reports.generated",
      target: `${folder}/${name}`,
      details: { generationId: Number(id), trigger: "urgent", txHash: d.tx_hash },
    });
  });
  return true;
}

/** Polls for transfers due a 24-hour aviso, in the processes that run workers. */
export class UrgentAvisoWriter {
  readonly #loop: PollingLoop;

  constructor(
    private readonly ctx: ReportsContext,
    pollMs = 2_000,
    private readonly batch = 20,
  ) {
    this.#loop = new PollingLoop(() => this.runOnce(), batch, pollMs);
  }

  /** Writes the avisos due now; how many transfers were handled. */
  async runOnce(): Promise<number> {
    const list = await due(this.ctx, this.batch);
    for (const d of list) await writeUrgentAviso(this.ctx, d);
    return list.length;
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }
}
