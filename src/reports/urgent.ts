// Urgent avisos (Mexico's 24 hours: LFPIORPI Art. 18-VI): when the checker records that a transfer met one of a
// jurisdiction's urgent rules (src/jurisdictions' `urgent`), its file is written at once, not at month end, through
// the same versioned writer as the monthly files (files.ts): `mx/<projectId>/<YYYY-MM>/<userId>.24h.<ref>.xml`.
// The exchange's own operations (src/exchange-operations: a withdrawal to a listed address, say) are judged by the
// same rules and owe the same aviso, keyed as a transfer is (the operation's row for the address, chain 0). Worker
// processes poll for such transfers and operations, and for the avisos due from knowledge (known-avisos.ts). A client
// another jurisdiction governs gets no file (the generation says so); one whose file cannot be written (no profile,
// say) is recorded as a failure, reported like every failure (failures.ts), and tried again an hour later.
import { sql } from "kysely";
import {
  exchangeClientOperations,
  exchangeOperationsMeeting,
  nativeCoins,
} from "../exchange-operations/index.ts";
import { JURISDICTIONS, type Jurisdiction } from "../jurisdictions/index.ts";
import { type CheckedTransfer, readClientOperations, transfersMeeting } from "../monitoring/index.ts";
import { PollingLoop } from "../platform/polling.ts";
import { projectCompliance, writeAudit } from "../projects/index.ts";
import type { ReportsContext } from "./context.ts";
import { failuresInTransaction, logFailures } from "./failures.ts";
import { folderOf, type Unbuilt, writeFiles } from "./files.ts";
import { dueKnownAvisos, writeKnownAviso } from "./known-avisos.ts";
import { periodBounds, periodOf } from "./period.ts";
import { clientSource, GOVERNED_ELSEWHERE } from "./profiles.ts";
import { asChainWrites } from "./written-addresses.ts";

const RETRY_AFTER_MS = 3600_000;
/**
 * How far back the workers look for exchange operations judged to owe an aviso: the aviso is due within a day and a
 * failed one is tried hourly, so five weeks is far more than any retry needs, and keeps the look bounded (an
 * operation whose file is still unwritten after that is owed in its month's filing calendar, where the officer sees it overdue).
 */
const OPERATIONS_LOOKBACK_MS = 35 * 86_400_000;

interface Due {
  project_id: number;
  address_id: string;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  evaluated_at: Date | string;
}

/**
 * Transfers of `j`'s projects that met one of its urgent rules and have neither a file nor a decided generation (one
 * that wrote it, or found it governed elsewhere), nor a failed try in the last hour.
 */
async function due(ctx: ReportsContext, j: Jurisdiction, limit: number): Promise<Due[]> {
  const since = new Date(ctx.now() - RETRY_AFTER_MS);
  const { rows } = await sql<Due>`
    SELECT mt.project_id, mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index, mt.evaluated_at
    FROM monitored_transfers mt
    JOIN projects p ON p.id = mt.project_id
    WHERE mt.status = 'evaluated' AND mt.laws && ${[...(j.urgent?.rules ?? [])]}::text[]
      AND p.jurisdictions @> ${JSON.stringify([j.code])}::jsonb
      AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.kind = 'urgent' AND r.country_code = ${j.code}
        AND r.address_id = mt.address_id AND r.chain_id = mt.chain_id AND r.tx_hash = mt.tx_hash
        AND r.log_index = mt.log_index)
      AND NOT EXISTS (SELECT 1 FROM report_generations g WHERE g.trigger = 'urgent' AND g.country_code = ${j.code}
        AND g.address_id = mt.address_id AND g.chain_id = mt.chain_id AND g.tx_hash = mt.tx_hash
        AND g.log_index = mt.log_index AND (g.status = 'completed' OR g.finished_at > ${since}))
    ORDER BY mt.evaluated_at, mt.tx_hash
    LIMIT ${limit}`.execute(ctx.db);
  return rows;
}

/**
 * Exchange operations of `j`'s projects judged in the last five weeks that met one of its urgent rules and have
 * neither a file nor a decided generation, nor a failed try in the last hour. The candidates come from the
 * operations' room; which of them are done is this room's to say.
 */
async function dueOperations(ctx: ReportsContext, j: Jurisdiction, limit: number): Promise<Due[]> {
  const rules = [...(j.urgent?.rules ?? [])];
  const since = new Date(ctx.now() - RETRY_AFTER_MS);
  const { rows: projects } = await sql<{ id: number }>`
    SELECT id FROM projects WHERE jurisdictions @> ${JSON.stringify([j.code])}::jsonb ORDER BY id`.execute(
    ctx.db,
  );
  const out: Due[] = [];
  for (const p of projects) {
    const met = await exchangeOperationsMeeting(ctx.db, {
      projectId: p.id,
      rules,
      checkedFrom: new Date(ctx.now() - OPERATIONS_LOOKBACK_MS),
    });
    if (met.length === 0) continue;
    const ids = met.map((m) => String(m.addressId));
    const { rows: done } = await sql<{ address_id: string }>`
      SELECT address_id FROM reports WHERE kind = 'urgent' AND country_code = ${j.code} AND chain_id = 0
        AND address_id = ANY(${ids}::bigint[])
      UNION
      SELECT address_id FROM report_generations WHERE trigger = 'urgent' AND country_code = ${j.code} AND chain_id = 0
        AND address_id = ANY(${ids}::bigint[]) AND (status = 'completed' OR finished_at > ${since})`.execute(
      ctx.db,
    );
    const settled = new Set(done.map((d) => String(d.address_id)));
    for (const m of met) {
      if (settled.has(String(m.addressId))) continue;
      out.push({
        project_id: p.id,
        address_id: String(m.addressId),
        chain_id: 0,
        tx_hash: m.txHash,
        log_index: 0,
        evaluated_at: m.evaluatedAt,
      });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/**
 * The urgent avisos a month owes in `j`: the transfers of the month (in its time zone) that met its urgent rules,
 * less those whose client another jurisdiction turned out to govern.
 */
export async function owedUrgent(
  ctx: ReportsContext,
  projectId: number,
  j: Jurisdiction,
  period: string,
): Promise<CheckedTransfer[]> {
  if (!j.urgent) return [];
  const bounds = periodBounds(period, j.timeZone);
  const window = { projectId, rules: j.urgent.rules, from: bounds.start, to: bounds.end };
  const met = [
    ...(await transfersMeeting(ctx.db, window)),
    ...(await exchangeOperationsMeeting(ctx.db, window)),
  ].sort((a, b) => a.blockTime.getTime() - b.blockTime.getTime());
  if (met.length === 0) return [];
  const { rows } = await sql<{ tx_hash: string; address_id: string; log_index: number }>`
    SELECT tx_hash, address_id, log_index FROM report_generations
    WHERE project_id = ${projectId} AND country_code = ${j.code} AND period = ${period} AND trigger = 'urgent'
      AND status = 'completed' AND problems @> ${JSON.stringify([{ code: GOVERNED_ELSEWHERE }])}::jsonb`.execute(
    ctx.db,
  );
  const elsewhere = new Set(rows.map((r) => `${r.address_id}:${r.tx_hash}:${r.log_index}`));
  return met.filter((t) => !elsewhere.has(`${t.addressId}:${t.txHash}:${t.logIndex}`));
}

/** Writes the urgent aviso of one transfer for `j`; true when it was written (or is there already). */
export async function writeUrgentAviso(ctx: ReportsContext, j: Jurisdiction, d: Due): Promise<boolean> {
  const urgent = j.urgent;
  if (!urgent) return false;
  const startedAt = new Date(ctx.now());
  const transfer = {
    addressId: Number(d.address_id),
    chainId: d.chain_id,
    txHash: d.tx_hash,
    logIndex: d.log_index,
  };
  const books = [{ code: j.code, timeZone: j.timeZone, currency: j.currency }];
  // Chain 0: an exchange operation, read from its room by its row's id.
  const [op] =
    d.chain_id === 0
      ? await exchangeClientOperations(
          ctx.db,
          { projectId: d.project_id, ids: [d.address_id], status: "checked", books, keepMonitored: true },
          nativeCoins(ctx.registry),
        )
      : asChainWrites(
          ctx.registry,
          await readClientOperations(ctx.db, ctx.registry, {
            projectId: d.project_id,
            transfer,
            status: "checked",
            books,
          }),
          j,
        );
  if (!op) {
    ctx.log?.error(
      { projectId: d.project_id, txHash: d.tx_hash },
      d.chain_id === 0
        ? `urgent aviso: exchange operation ${d.tx_hash} (row ${d.address_id}) is not readable`
        : `urgent aviso: transaction ${d.tx_hash} of address ${d.address_id} is not readable`,
    );
    return false;
  }
  const period = periodOf(op.blockTime, j.timeZone);
  const month = { projectId: d.project_id, countryCode: j.code, period };
  const compliance = await projectCompliance(ctx.db, d.project_id);
  const client = await (await clientSource(ctx, d.project_id, compliance, j.code))(op.userId, [op]);
  const blocks = op.exchange
    ? `the 24-hour aviso of exchange operation ${op.exchange.operationId}`
    : `the 24-hour aviso of transaction ${op.txHash}`;
  const stem = urgent.stemOf(op);
  let files: Parameters<typeof writeFiles>[2] = [];
  let refused: Unbuilt[] = [];
  const elsewhere =
    client.kind === "elsewhere"
      ? [
          {
            userId: op.userId,
            code: GOVERNED_ELSEWHERE,
            reason: `the client is governed by ${client.governedBy ?? "no jurisdiction of the project"}`,
          },
        ]
      : [];
  if (client.kind === "unreadable")
    refused = [
      { kind: "urgent", userId: op.userId, stem, code: "profile_unreadable", reason: client.reason, blocks },
    ];
  else if (client.kind === "here") {
    const built = urgent.build({
      settings: compliance.settings[j.code],
      operation: op,
      profile: client.profile,
      period,
    });
    if (built.ok) files = [built.file];
    else refused = [{ kind: "urgent", userId: op.userId, stem, ...built.blocked, blocks }];
  }
  const written = await writeFiles(
    ctx,
    {
      ...month,
      kinds: ["urgent"],
      complete: false,
      ...(client.kind === "elsewhere" ? { settled: [stem] } : {}),
    },
    files,
    refused,
    {
      trigger: "urgent",
      actor: "system",
      startedAt,
      transfer,
      audit: async (trx, result) => {
        await writeAudit(trx, {
          projectId: d.project_id,
          actor: "system",
          action: "reports.generated",
          target: `${folderOf(month)}/${files[0]?.stem ?? stem}`,
          details: { generationId: result.generationId, trigger: "urgent", txHash: d.tx_hash },
        });
        await failuresInTransaction(trx, { ...month, actor: "system" }, result);
      },
    },
    elsewhere,
  );
  logFailures(ctx, month, written);
  return written.files.length > 0;
}

/** Polls for transfers due an urgent aviso, in the processes that run workers. */
export class UrgentAvisoWriter {
  readonly #loop: PollingLoop;

  constructor(
    private readonly ctx: ReportsContext,
    pollMs = 2_000,
    private readonly batch = 20,
  ) {
    this.#loop = new PollingLoop(
      () => this.runOnce(),
      batch,
      pollMs,
      (error) => {
        ctx.log?.error({ err: error }, `urgent avisos: ${(error as Error).message}`);
        ctx.countLoopFailure?.("urgent_avisos");
      },
    );
  }

  /** Writes the avisos due now; how many transfers were handled. */
  async runOnce(): Promise<number> {
    let handled = 0;
    for (const j of JURISDICTIONS) {
      if (!j.urgent) continue;
      const list = [
        ...(await due(this.ctx, j, this.batch)),
        ...(await dueOperations(this.ctx, j, this.batch)),
      ];
      for (const d of list) await writeUrgentAviso(this.ctx, j, d);
      handled += list.length;
      // And the avisos due from knowledge (a client found on a list), with no transfer to anchor them.
      const known = await dueKnownAvisos(this.ctx, j, this.batch);
      for (const a of known) await writeKnownAviso(this.ctx, j, a);
      handled += known.length;
    }
    return handled;
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }
}
