// Checks the recorded transfers of monitored addresses (watch.ts) against the law rules of their project's
// jurisdictions (src/regulation) and turns those that infringe any into notifications in the outbox
// (src/notifications), which the deliverer sends. A transfer that infringes nothing sends nothing. When one that
// does cannot be turned into a notification (the user's profile can't be fetched or lacks what a jurisdiction
// needs), a `type: error` message naming the address, the transaction and the reason is sent instead.
//
// The notification and the transfer's `evaluated` mark commit together; the outbox holds one message per address
// and transfer, so two checkers racing on one transfer make one message.

import type { Kysely } from "kysely";
import type { ChainRegistry } from "../chains/index.ts";
import {
  type Integration,
  type KeysContext,
  projectIntegration,
  projectJurisdictions,
} from "../keys/index.ts";
import { enqueue, type NewMessage } from "../notifications/index.ts";
import { PollingLoop } from "../platform/polling.ts";
import { zonedDay } from "../platform/time-zone.ts";
import {
  evaluateTransfer,
  type InflictedLaw,
  MEXICO_TIME_ZONE,
  mxSingleOperationThresholdMxn,
} from "../regulation/index.ts";
import type { DB } from "../schema.ts";
import { earlierTransfers, type PendingTransfer, readPending, usdOf } from "./facts.ts";
import type { ProfileReader } from "./profile.ts";

interface ProjectSettings {
  jurisdictions: readonly string[];
  integration: Integration;
}

export interface CheckerOptions {
  db: Kysely<DB>;
  keys: KeysContext;
  registry: ChainRegistry;
  profiles: ProfileReader;
  now: () => number;
  batch: number;
  pollMs: number;
}

export class TransferChecker {
  readonly #o: CheckerOptions;
  readonly #loop: PollingLoop;

  constructor(
    options: Partial<CheckerOptions> & Pick<CheckerOptions, "db" | "keys" | "registry" | "profiles">,
  ) {
    this.#o = { now: Date.now, batch: 50, pollMs: 1_000, ...options };
    this.#loop = new PollingLoop(() => this.runOnce(), this.#o.batch, this.#o.pollMs);
  }

  /** Checks one batch of recorded transfers; how many were checked. */
  async runOnce(): Promise<number> {
    const pending = await readPending(this.#o.db, this.#o.batch);
    // A batch is mostly one project's transfers: its jurisdictions and integration are read once.
    const projects = new Map<number, Promise<ProjectSettings>>();
    const settingsOf = (projectId: number) => {
      let found = projects.get(projectId);
      if (!found) {
        found = Promise.all([
          projectJurisdictions(this.#o.db, projectId),
          projectIntegration(this.#o.keys, projectId, new Date(this.#o.now())),
        ]).then(([jurisdictions, integration]) => ({ jurisdictions, integration }));
        projects.set(projectId, found);
      }
      return found;
    };
    for (const transfer of pending) await this.#check(transfer, settingsOf);
    return pending.length;
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #check(
    t: PendingTransfer,
    settingsOf: (projectId: number) => Promise<ProjectSettings>,
  ): Promise<void> {
    const { db } = this.#o;
    const chain = this.#o.registry.get(t.chainId);
    const native = t.token === "native";
    const decimals = native ? (chain?.currency_decimals ?? 18) : t.decimals;
    const usd = usdOf(t.value, decimals, t.priceUsd);
    const { jurisdictions, integration } = await settingsOf(t.projectId);
    const earlier = await earlierTransfers(db, t, chain?.currency_decimals ?? 18);
    // The day in Mexico City: the UMA changes and the 2025 reform took effect at midnight there, not in UTC.
    const day = zonedDay(t.blockTime, MEXICO_TIME_ZONE);
    const evaluation = evaluateTransfer(jurisdictions, {
      day,
      usd,
      mxnPerUsd: t.mxnPerUsd,
      counterpartyCategory: t.counterpartyCategory,
      earlier: {
        sixMonthsSubThresholdMxn: sixMonthsSubThreshold(earlier),
        calendarMonthUsd: earlier
          .filter((e) => e.blockTime.toISOString().slice(0, 7) === day.slice(0, 7))
          .reduce((sum, e) => sum + (e.usd ?? 0), 0),
      },
    });
    let message: NewMessage | undefined;
    if (evaluation.laws.length > 0) {
      const profile = integration.integrationUrl
        ? await this.#o.profiles.read(t.projectId, integration, jurisdictions, t.foreignUserId)
        : ({ ok: true } as const);
      message = profile.ok
        ? notificationOf(
            t,
            usd,
            decimals,
            native ? (chain?.currency_symbol ?? "ETH") : t.symbol,
            evaluation.laws,
          )
        : errorOf(t, profile.reason);
    }
    await db.transaction().execute(async (trx) => {
      const id = message ? await enqueue(trx, message, new Date(this.#o.now())) : undefined;
      await trx
        .updateTable("monitored_transfers")
        .set({
          status: "evaluated",
          evaluated_at: new Date(this.#o.now()),
          // what the reports cite (src/reports): the rules infringed, at this price and rate
          laws: evaluation.laws.map((l) => l.id),
          price_usd: t.priceUsd,
          mxn_per_usd: t.mxnPerUsd,
          ...(id !== undefined ? { notification_id: String(id) } : {}),
        })
        .where("address_id", "=", String(t.addressId))
        .where("chain_id", "=", t.chainId)
        .where("tx_hash", "=", t.txHash)
        .where("log_index", "=", t.logIndex)
        .where("status", "=", "pending")
        .execute();
    });
  }
}

/**
 * MXN of the user's earlier transfers under the single-operation threshold of their day (Mexico's accumulation
 * counts only those; each at its own day's rate). Transfers without a price or a rate count nothing.
 */
function sixMonthsSubThreshold(
  earlier: { blockTime: Date; usd: number | null; mxnPerUsd: number | null }[],
): number {
  let sum = 0;
  for (const e of earlier) {
    if (e.usd === null || e.mxnPerUsd === null) continue;
    const threshold = mxSingleOperationThresholdMxn(zonedDay(e.blockTime, MEXICO_TIME_ZONE));
    const mxn = e.usd * e.mxnPerUsd;
    if (mxn < threshold) sum += mxn;
  }
  return sum;
}

/** The notification body of the Events contract, with a few fields beyond it (direction, counterparty, decimal). */
function notificationOf(
  t: PendingTransfer,
  usd: number | null,
  decimals: number | null,
  symbol: string | null,
  laws: InflictedLaw[],
): NewMessage {
  const native = t.token === "native";
  return {
    projectId: t.projectId,
    type: "notification",
    transfer: { addressId: t.addressId, chainId: t.chainId, txHash: t.txHash, logIndex: t.logIndex },
    body: {
      type: "notification",
      data: {
        projectId: t.projectId,
        chainId: t.chainId,
        address: { id: t.addressId, userId: t.foreignUserId, address: t.address, description: t.description },
        txHash: t.txHash,
        timestamp: t.blockTime.toISOString(),
        // A wei amount overflows a JSON number's precision: `valueDecimal` carries it exactly.
        amount: {
          value: Number(t.value),
          valueDecimal: t.value.toString(),
          usd: usd === null ? null : round2(usd),
        },
        token: {
          name: native ? symbol : t.name,
          symbol,
          decimals,
          address: native ? null : t.token,
        },
        inflictedLaws: laws.map((l) => ({
          name: l.name,
          description: l.description,
          source: l.source,
          risk: l.risk,
          country: l.country,
          countryCode: l.countryCode,
          id: l.id,
        })),
        direction: t.direction,
        counterparty: t.counterparty,
      },
    },
  };
}

function errorOf(t: PendingTransfer, reason: string): NewMessage {
  return {
    projectId: t.projectId,
    type: "error",
    transfer: { addressId: t.addressId, chainId: t.chainId, txHash: t.txHash, logIndex: t.logIndex },
    body: {
      type: "error",
      data: `Address ${t.address} (user ${t.foreignUserId}, address id ${t.addressId}), transaction ${t.txHash} on chain ${t.chainId}: ${reason}`,
    },
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
