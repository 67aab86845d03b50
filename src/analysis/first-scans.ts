// A result as soon as the clients look (docs/api.md, "Addresses and monitoring"; docs/decisions/0028): registering
// an address starts its first scan in the background, a risk job of the project over the whole history at the
// default depth (the project's jurisdictions add their thresholds, as to every analysis), so that
// GET .../addresses/scan-risk answers `pending` at once and the result when it completes, without a POST scan.
//
// The project's cap on risk jobs queued or running (VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT) bounds these too: first
// scans start only while the project has fewer than half its cap (FIRST_SCAN_SHARE), so a project registering
// thousands of addresses neither floods the queue the other projects share nor takes the places its own POST /risk
// calls need. Past that share the scan waits in deferred_scans (the registration still succeeds) and is queued when
// a place frees: each finished risk job of the project drains its waiting scans, and so does the workers' sweep
// (src/analysis/layered/jobs.ts). Each outcome is counted (ctx.countFirstScan) and the unusual ones logged.
import type { Kysely } from "kysely";
import type { ChainRegistry } from "../chains/index.ts";
import { chainsHoldingAddress } from "../ledger/index.ts";
import type { DB } from "../schema.ts";
import { lockAndCountActive } from "./caps.ts";
import type { AnalysisContext, FirstScanOutcome } from "./context.ts";
import { queueRiskJobIn, RISK_QUEUE, riskJobCap } from "./risk-queue.ts";
import { unfinishedOf } from "./store.ts";

/** The chain an address with no data anywhere is scanned on: the API's default chain (GET /risk/quick's). */
export const DEFAULT_SCAN_CHAIN = 1;

/** The part of a project's risk-job cap first scans may fill: half, at least one place. */
export const firstScanShare = (ctx: AnalysisContext): number => Math.ceil(riskJobCap(ctx) / 2);

export interface FirstScanRequest {
  projectId: number;
  /** lowercase EVM address */
  address: string;
  /** null: registered on every chain (each chain where the ledger holds data of it, else the default chain) */
  chainId: number | null;
}

/**
 * Starts a registered address's first scan on each chain it is to be scanned on. Never throws: a scan that cannot
 * be started is logged and counted `failed`, and the registration stands.
 */
export async function startFirstScans(
  ctx: AnalysisContext,
  req: FirstScanRequest,
): Promise<{ chainId: number; outcome: FirstScanOutcome }[]> {
  let chains: number[];
  try {
    chains = await chainsToScan(ctx, req.address, req.chainId);
  } catch (error) {
    ctx.log?.warn({ err: error, projectId: req.projectId }, "first scan: could not choose its chains");
    ctx.countFirstScan?.("failed");
    return [];
  }
  const outcomes: { chainId: number; outcome: FirstScanOutcome }[] = [];
  for (const chainId of chains) {
    const outcome = await firstScanOn(ctx, req.projectId, chainId, req.address).catch((error) => {
      ctx.log?.warn({ err: error, projectId: req.projectId, chainId }, "first scan: could not be started");
      return "failed" as const;
    });
    if (outcome === "deferred")
      ctx.log?.info?.(
        { projectId: req.projectId, chainId, share: firstScanShare(ctx) },
        "first scan: deferred, the project's share of its risk-job cap is taken; it runs when a place frees",
      );
    ctx.countFirstScan?.(outcome);
    outcomes.push({ chainId, outcome });
  }
  return outcomes;
}

/**
 * The chains a registered address is first scanned on: its own chain; for an address registered on every chain,
 * each enabled chain where the ledger holds transfers of it, or, with none, the default chain (chain 1 when
 * enabled, else the first enabled chain).
 */
export async function chainsToScan(
  ctx: Pick<AnalysisContext, "db" | "registry">,
  address: string,
  chainId: number | null,
): Promise<number[]> {
  if (chainId !== null) return ctx.registry.get(chainId) ? [chainId] : [];
  const enabled = ctx.registry.enabled().map((c) => c.id);
  const held = await chainsHoldingAddress(ctx.db, address, enabled);
  if (held.length > 0) return held;
  const fallback = defaultChain(ctx.registry);
  return fallback === undefined ? [] : [fallback];
}

function defaultChain(registry: ChainRegistry): number | undefined {
  return registry.get(DEFAULT_SCAN_CHAIN) ? DEFAULT_SCAN_CHAIN : registry.enabled()[0]?.id;
}

/** One chain's first scan, decided and written under the project's lock on its risk-job count. */
async function firstScanOn(
  ctx: AnalysisContext,
  projectId: number,
  chainId: number,
  address: string,
): Promise<FirstScanOutcome> {
  await ctx.jobs.prepare(RISK_QUEUE);
  return ctx.db.transaction().execute(async (trx) => {
    const active = await lockAndCountActive(trx, projectId, "job");
    if (await onItsWay(trx, projectId, chainId, address)) return "skipped";
    if (active >= firstScanShare(ctx)) {
      await trx
        .insertInto("deferred_scans")
        .values({ project_id: projectId, chain_id: chainId, address })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return "deferred";
    }
    await queueRiskJobIn(ctx, trx, { projectId, address, chainId });
    return "queued";
  });
}

/** An analysis of the address on the chain is queued or running, or its first scan already waits. */
async function onItsWay(
  db: Kysely<DB>,
  projectId: number,
  chainId: number,
  address: string,
): Promise<boolean> {
  if ((await unfinishedOf(db, { projectId, chainId, addresses: [address] })).size > 0) return true;
  return (await deferredOf(db, { projectId, chainId, addresses: [address] })).size > 0;
}

/** Of these addresses, those whose first scan waits for a place (on a chain when given). */
export async function deferredOf(
  db: Kysely<DB>,
  q: { projectId: number; chainId?: number | undefined; addresses: string[] },
): Promise<Set<string>> {
  if (q.addresses.length === 0) return new Set();
  let query = db
    .selectFrom("deferred_scans")
    .select("address")
    .distinct()
    .where("project_id", "=", q.projectId)
    .where("address", "in", q.addresses);
  if (q.chainId !== undefined) query = query.where("chain_id", "=", q.chainId);
  return new Set((await query.execute()).map((r) => r.address));
}

/** How many projects one sweep drains at most (the next sweep takes the others). */
const PROJECTS_PER_SWEEP = 1_000;

/**
 * Queues waiting first scans, oldest first, while their project is under its share: of one project (after one of
 * its risk jobs finished) or of every project that has some (the sweep). Returns how many were queued. Never
 * throws: a failure is logged, and the next finished job or sweep tries again.
 */
export async function drainDeferredScans(ctx: AnalysisContext, projectId?: number): Promise<number> {
  try {
    const projects =
      projectId !== undefined
        ? [projectId]
        : (
            await ctx.db
              .selectFrom("deferred_scans")
              .select("project_id")
              .distinct()
              .orderBy("project_id")
              .limit(PROJECTS_PER_SWEEP)
              .execute()
          ).map((r) => r.project_id);
    let queued = 0;
    for (const p of projects) queued += await drainProject(ctx, p);
    return queued;
  } catch (error) {
    ctx.log?.warn({ err: error, projectId }, "first scan: could not queue the deferred scans");
    return 0;
  }
}

async function drainProject(ctx: AnalysisContext, projectId: number): Promise<number> {
  // Most finished jobs belong to a project with nothing waiting: one read, no lock.
  const waiting = await ctx.db
    .selectFrom("deferred_scans")
    .select("address")
    .where("project_id", "=", projectId)
    .limit(1)
    .executeTakeFirst();
  if (!waiting) return 0;
  await ctx.jobs.prepare(RISK_QUEUE);
  const queued = await ctx.db.transaction().execute(async (trx) => {
    const free = firstScanShare(ctx) - (await lockAndCountActive(trx, projectId, "job"));
    if (free <= 0) return 0;
    const next = await trx
      .selectFrom("deferred_scans")
      .select(["chain_id", "address"])
      .where("project_id", "=", projectId)
      .orderBy("requested_at")
      .orderBy("chain_id")
      .orderBy("address")
      .limit(free)
      .execute();
    let n = 0;
    for (const { chain_id: chainId, address } of next) {
      await trx
        .deleteFrom("deferred_scans")
        .where("project_id", "=", projectId)
        .where("chain_id", "=", chainId)
        .where("address", "=", address)
        .execute();
      // Analysed meanwhile some other way (a POST /risk, an investigation): that analysis is its first result.
      if ((await unfinishedOf(trx, { projectId, chainId, addresses: [address] })).size > 0) continue;
      if (!ctx.registry.get(chainId)) continue;
      await queueRiskJobIn(ctx, trx, { projectId, address, chainId });
      n++;
    }
    return n;
  });
  for (let i = 0; i < queued; i++) ctx.countFirstScan?.("queued_later");
  return queued;
}
