// The monitoring of the exchange's operations: a loop on the workers that takes the clients with operations not yet
// judged (a few per project at a time, so that one project's flood does not hold back another's), judges each
// client's new operations with the rules of rules.ts over the window around them, raises their alerts and marks the
// operations judged, in one transaction per client. Before it, outside any transaction, what the rules need from
// elsewhere: the verdict on each new withdrawal's destination (the service's quick analysis) and the client's
// profile (its name, tax ids and own accounts, from the integrator). An operation whose transaction failed stays
// unjudged and is taken again; a rule that could not be judged (no profile, no verdict) is recorded on the operation
// and counted, never silently passed.
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type pino from "pino";
import { type OperationEvidenceItem, raiseOperationAlert } from "../alerts/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import type { ProfileResult } from "../integrator/index.ts";
import { jurisdiction } from "../jurisdictions/index.ts";
import { usdPerUnit } from "../ledger/index.ts";
import { RATE_DAYS } from "../monitoring/index.ts";
import { PollingLoop } from "../platform/polling.ts";
import { zonedDay } from "../platform/time-zone.ts";
import { type Compliance, projectCompliance } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { type ClientIdentity, identityOf } from "./client-identity.ts";
import { judgeLaws, type LawOutcome, raiseLawHits } from "./law.ts";
import {
  type DestinationVerdict,
  judgeOperations,
  type ReportingThreshold,
  type RuleHit,
  type ValuedOperation,
} from "./rules.ts";
import type { OperationItem } from "./schemas.ts";
import { type RuleParameters, ruleParametersOf } from "./settings.ts";
import { type HeldOperation, markChecked, operationsBetween } from "./store.ts";
import { unitOf } from "./units.ts";

const HOUR = 3_600_000;

export interface OperationMonitorOptions {
  db: Kysely<DB>;
  /** the chains, to read the client's monitored transfers beside its operations (the accumulations) */
  registry: ChainRegistry;
  /** a coin's symbol → the chains whose native coin it is (to value ETH, TRX… by their chain's price) */
  natives: () => ReadonlyMap<string, readonly number[]>;
  readProfile: (projectId: number, userId: string) => Promise<ProfileResult>;
  /** the verdict on a withdrawal's destination; null when the address could not be analysed */
  destinationVerdict: (
    projectId: number,
    chainId: number,
    address: string,
  ) => Promise<DestinationVerdict | null>;
  now?: () => Date;
  log?: pino.Logger;
  /** clients judged per step */
  batch?: number;
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** told of the operations judged, the alerts raised by rule and the rules left unjudged */
  onJudged?: (r: { operations: number; alerts: Record<string, number>; unjudged: string[] }) => void;
  /** counts a law rule that could not be judged (vigia_rules_unjudged_total), by rule book */
  countUnjudged?: (book: string) => void;
  /** told when messages were handed to the outbox (the deliverer of this process looks at once) */
  onMessages?: () => void;
  /**
   * the lists of persons the client is a `match` on (src/screening, wired by the composition root), screening it
   * from its profile when it never was; or why it could not be screened
   */
  clientListings?: (
    client: { projectId: number; userId: string; chainId: number; address: string; addressId: null },
    readProfile: () => Promise<ProfileResult>,
  ) => Promise<{ matchedLists: readonly string[] } | { unscreened: string }>;
}

export const DEFAULT_MONITOR = { batch: 20, pollMs: 1_000 };

interface PendingClient {
  projectId: number;
  userId: string;
}

/** Clients with operations to judge, oldest first, at most `perProject` of each project among `limit`. */
async function pendingClients(db: Kysely<DB>, limit: number): Promise<PendingClient[]> {
  const { rows } = await sql<{ project_id: number; user_id: string }>`
    SELECT project_id, user_id FROM (
      SELECT project_id, user_id, first,
        row_number() OVER (PARTITION BY project_id ORDER BY first) AS n
      FROM (
        SELECT project_id, user_id, min(id) AS first FROM (
          SELECT id, project_id, user_id FROM exchange_operations WHERE checked_at IS NULL ORDER BY id
          LIMIT ${limit * 50}) u
        GROUP BY project_id, user_id) c) r
    ORDER BY n, first LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ projectId: r.project_id, userId: r.user_id }));
}

async function uncheckedOf(db: Kysely<DB>, c: PendingClient): Promise<HeldOperation[]> {
  const rows = await db
    .selectFrom("exchange_operations")
    .select(["id", "body"])
    .where("project_id", "=", c.projectId)
    .where("user_id", "=", c.userId)
    .where("checked_at", "is", null)
    .orderBy("id")
    .limit(1_000)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    item: (typeof r.body === "string" ? JSON.parse(r.body) : r.body) as OperationItem,
    checked: false,
  }));
}

async function valued(
  db: Kysely<DB>,
  ops: readonly HeldOperation[],
  fresh: ReadonlySet<string>,
  natives: ReadonlyMap<string, readonly number[]>,
): Promise<ValuedOperation[]> {
  const units = ops.map((o) => ({ o, u: unitOf(o.item), day: o.item.at.slice(0, 10) }));
  const prices = await usdPerUnit(
    db,
    units.flatMap((x) => (x.u ? [{ unit: x.u.unit, day: x.day }] : [])),
    natives,
    RATE_DAYS,
  );
  return units.map(({ o, u, day }) => {
    const per = u ? prices.get(`${u.unit}|${day}`) : null;
    return {
      id: o.id,
      item: o.item,
      usd: u && per != null ? Math.round(Number(u.amount) * per * 100) / 100 : null,
      isNew: fresh.has(o.id),
    };
  });
}

/** The reporting thresholds of the project's jurisdictions, each on the operation's day in its own zone. */
function thresholdsOf(codes: readonly string[]) {
  const books = codes.flatMap((c) => {
    const j = jurisdiction(c);
    return j ? [j] : [];
  });
  return (currency: string, at: Date): ReportingThreshold[] =>
    books.flatMap((j) =>
      j.thresholds.flatMap((t) => {
        if (t.currency !== currency) return [];
        const amount = t.amountOn(zonedDay(at, j.timeZone));
        return amount === undefined ? [] : [{ name: t.name, amount }];
      }),
    );
}

function lookbackHours(p: RuleParameters): number {
  return Math.max(
    p.fan_in.windowHours,
    p.pass_through.windowHours,
    p.withdrawal_to_risk.fundingHours,
    p.fiat_structuring.windowDays * 24,
  );
}

function evidenceOf(o: ValuedOperation): OperationEvidenceItem {
  const i = o.item;
  const base = { operationId: i.operationId, kind: i.kind, at: i.at, usd: o.usd };
  switch (i.kind) {
    case "fiat_deposit":
    case "fiat_withdrawal":
      return {
        ...base,
        amount: i.amount,
        unit: i.currency,
        rail: i.rail,
        ...(i.counterparty?.name ? { counterparty: i.counterparty.name } : {}),
        ...(i.counterparty?.taxId ? { taxId: i.counterparty.taxId } : {}),
        ...(i.counterparty?.account ? { account: i.counterparty.account } : {}),
        ...(i.reference ? { reference: i.reference } : {}),
      };
    case "crypto_deposit":
    case "crypto_withdrawal":
      return {
        ...base,
        amount: i.amount,
        unit: i.asset,
        chainId: i.chainId,
        address: i.address,
        ...(i.txHash ? { txHash: i.txHash } : {}),
      };
    case "buy":
    case "sell":
      return { ...base, amount: i.fiatAmount, unit: i.currency };
    case "swap":
      return { ...base, amount: i.amount, unit: i.asset };
    case "fee":
      return { ...base, amount: i.amount, unit: i.currency ?? i.asset ?? "" };
    case "custody_snapshot":
      return { ...base, amount: "0", unit: "" };
  }
}

/** Judges one client's new operations; how many were judged, the alerts raised by rule, the rules left unjudged. */
interface ProjectSettings {
  parameters: RuleParameters;
  compliance: Compliance;
}

async function judgeClient(
  o: OperationMonitorOptions,
  c: PendingClient,
  settingsOf: (projectId: number) => Promise<ProjectSettings>,
): Promise<{ operations: number; alerts: Record<string, number>; unjudged: string[] }> {
  const none = { operations: 0, alerts: {}, unjudged: [] };
  const pending = await uncheckedOf(o.db, c);
  if (pending.length === 0) return none;
  const { parameters, compliance } = await settingsOf(c.projectId);
  const verdicts = new Map<string, DestinationVerdict>();
  if (parameters.withdrawal_to_risk.enabled)
    for (const p of pending)
      if (p.item.kind === "crypto_withdrawal") {
        const v = await o
          .destinationVerdict(c.projectId, p.item.chainId, p.item.address)
          .catch((error: unknown) => {
            o.log?.warn(
              { err: error, projectId: c.projectId, operationId: p.item.operationId },
              "operations: the withdrawal's destination could not be analysed",
            );
            return null;
          });
        if (v) verdicts.set(p.item.operationId, v);
      }
  // The profile, once per client's batch: who the client is (its own accounts), and which jurisdiction governs it.
  const profile = await o.readProfile(c.projectId, c.userId).catch((error: unknown) => {
    o.log?.warn(
      { err: error, projectId: c.projectId, userId: c.userId },
      "operations: the profile read failed",
    );
    return null;
  });
  const client: ClientIdentity | null = profile?.ok ? identityOf(profile.profile) : null;
  // Screened as a client with no monitored address (chain 0, no address), from the profile just read.
  const listed = o.clientListings
    ? await o
        .clientListings(
          { projectId: c.projectId, userId: c.userId, chainId: 0, address: "", addressId: null },
          () => (profile ? Promise.resolve(profile) : o.readProfile(c.projectId, c.userId)),
        )
        .catch((error: unknown) => ({ unscreened: `the screening failed: ${(error as Error).message}` }))
    : undefined;
  const clientLists =
    listed === undefined ? undefined : "matchedLists" in listed ? listed.matchedLists : listed.unscreened;
  const now = o.now?.() ?? new Date();
  const result: {
    operations: number;
    alerts: Record<string, number>;
    unjudged: string[];
    law?: LawOutcome;
  } = await o.db.transaction().execute(async (trx) => {
    // One client is judged by one worker at a time: another that claimed the same client's newer operations waits
    // for its next poll (an accumulation must see the verdicts before it).
    const { rows: held } = await sql<{ got: boolean }>`
      SELECT pg_try_advisory_xact_lock(hashtext(${`exchange-operations:${c.projectId}:${c.userId}`})) AS got`.execute(
      trx,
    );
    if (!held[0]?.got) return none;
    const locked = await trx
      .selectFrom("exchange_operations")
      .select("id")
      .where(
        "id",
        "in",
        pending.map((p) => p.id),
      )
      .where("checked_at", "is", null)
      .forUpdate()
      .skipLocked()
      .execute();
    const fresh = new Set(locked.map((r) => String(r.id)));
    if (fresh.size === 0) return none;
    const times = pending.filter((p) => fresh.has(p.id)).map((p) => Date.parse(p.item.at));
    const back = lookbackHours(parameters) * HOUR;
    const window = await operationsBetween(
      trx,
      c.projectId,
      c.userId,
      new Date(Math.min(...times) - back),
      new Date(Math.max(...times) + back),
    );
    const outcome = judgeOperations({
      userId: c.userId,
      operations: await valued(trx, window, fresh, o.natives()),
      parameters,
      client,
      thresholds: thresholdsOf(compliance.jurisdictions),
      verdicts,
    });
    const law = await judgeLaws(
      trx,
      { registry: o.registry, natives: o.natives(), ...(o.log ? { log: o.log } : {}) },
      c,
      fresh,
      times,
      compliance,
      profile,
      clientLists,
      now,
    );
    await markChecked(trx, [...fresh], outcome.unjudged, now);
    // The alerts last: raising one holds the project's audit chain until this transaction ends.
    const alerts: Record<string, number> = {};
    for (const hit of outcome.hits) {
      const raised = await raiseHit(trx, c, hit, parameters, now);
      if (raised) alerts[hit.rule] = (alerts[hit.rule] ?? 0) + 1;
    }
    await raiseLawHits(trx, law);
    return { operations: fresh.size, alerts, unjudged: outcome.unjudged, law };
  });
  for (const u of result.law?.unjudged ?? []) o.countUnjudged?.(u.book);
  if ((result.law?.messages ?? 0) > 0) o.onMessages?.();
  return result;
}

async function raiseHit(
  trx: Kysely<DB>,
  c: PendingClient,
  hit: RuleHit,
  parameters: RuleParameters,
  now: Date,
): Promise<boolean> {
  const r = await raiseOperationAlert(trx, {
    projectId: c.projectId,
    userId: c.userId,
    rule: hit.rule,
    chainId: hit.chainId,
    address: hit.address,
    level: hit.level,
    reason: hit.reason,
    operations: hit.operations.map(evidenceOf),
    parameters: parameters[hit.rule],
    facts: hit.facts,
    now,
  });
  return r.created;
}

/**
 * One step: the pending clients' operations judged; how many clients were judged (a client whose check failed is
 * not counted, so that a failing client makes the loop wait for its next poll rather than spin).
 */
export async function judgeOperationsOnce(o: OperationMonitorOptions): Promise<number> {
  const clients = await pendingClients(o.db, o.batch ?? DEFAULT_MONITOR.batch);
  // A project's settings are read once per step, whatever the number of its clients in it.
  const read = new Map<number, Promise<ProjectSettings>>();
  const settingsOf = (projectId: number) => {
    let got = read.get(projectId);
    if (!got) {
      got = Promise.all([ruleParametersOf(o.db, projectId), projectCompliance(o.db, projectId)]).then(
        ([parameters, compliance]) => ({ parameters, compliance }),
      );
      read.set(projectId, got);
    }
    return got;
  };
  // A few clients at once: a slow integrator or analysis delays its own client, not the step.
  const judged = await Promise.all(
    clients.map(async (c) => {
      try {
        const r = await judgeClient(o, c, settingsOf);
        if (r.operations > 0) o.onJudged?.(r);
        return 1;
      } catch (error) {
        o.log?.warn(
          { err: error, projectId: c.projectId, userId: c.userId },
          "operations: a client's check failed",
        );
        o.onError?.(error);
        return 0;
      }
    }),
  );
  return judged.reduce<number>((a, b) => a + b, 0);
}

export function startOperationMonitor(o: OperationMonitorOptions): { stop(): Promise<void> } {
  const batch = o.batch ?? DEFAULT_MONITOR.batch;
  const loop = new PollingLoop(
    () => judgeOperationsOnce(o),
    batch,
    o.pollMs ?? DEFAULT_MONITOR.pollMs,
    (error) => {
      o.log?.warn({ err: error }, "operations: a step failed; tried again at the next poll");
      o.onError?.(error);
    },
  );
  loop.start();
  return { stop: () => loop.stop() };
}
