// The deposit-address heuristic (Victor, "Address Clustering Heuristics for Ethereum", FC 2020): exchanges give
// each customer an address of their own and sweep what arrives there on to their hot wallets, so an unlabelled
// address that forwards (nearly) everything it receives to the labelled wallets of one exchange, promptly, and does
// little else, is that exchange's deposit address. Real label sets name hot wallets, almost never deposit
// addresses: without this, funds that enter an exchange are invisible to the risk engine.
//
// Pure: the history of one address in, a verdict with its evidence out. The rules and their defaults:
//  - not too busy: at most `maxTransfersPerDirection` transfers each way (a deposit address serves one customer);
//  - its sweeps (transfers to exchange wallets) go to one exchange only; to two, it is a user of both;
//  - at most `maxOtherOutShare` of its outgoing transfers go anywhere else (an ordinary user who sometimes pays an
//    exchange, a merchant paying suppliers, are not deposit addresses);
//  - it received from someone other than the exchange, and swept at least `minSweptShare` of what it received
//    before its last sweep (funds that arrived since are waiting for the next one), per token, weighted by the USD
//    received (by the number of transfers when a token has no price); what the exchange itself sent (gas for token
//    sweeps) is not counted as received;
//  - funds waited a median of at most `maxMedianSweepHours` for their sweep (the wait of the oldest funds waiting
//    at each sweep).
// Confidence (0-1): 0.6 with one sweep, 0.7 with two, 0.8 with three or more, +0.1 when the median wait is under a
// day, times the swept share, at most 0.95.
import type { LedgerHistoryTransfer } from "../ledger/index.ts";

export interface DepositParams {
  maxTransfersPerDirection: number;
  maxOtherOutShare: number;
  minSweptShare: number;
  maxMedianSweepHours: number;
}

export const DEFAULT_DEPOSIT_PARAMS: DepositParams = {
  maxTransfersPerDirection: 1_000,
  maxOtherOutShare: 0.1,
  minSweptShare: 0.9,
  maxMedianSweepHours: 168,
};

/** A transfer of the history as the ledger reads it, with the exchange its counterparty is a wallet of. */
export interface HistoryTransfer extends Omit<LedgerHistoryTransfer, "exchangeLabel"> {
  /** the exchange the counterparty is a labelled wallet of (its key and name), when it is one */
  exchange?: { key: string; name: string };
}

export interface AddressHistory {
  address: string;
  transfers: HistoryTransfer[];
  /** more transfers than the history holds in some direction */
  truncated: boolean;
}

export interface DepositAttribution {
  address: string;
  /** the exchange's name as its labels write it */
  exchange: string;
  /** the labelled wallets it swept to, sorted */
  hotWallets: string[];
  sweeps: number;
  /** transfers it received from others than the exchange */
  received: number;
  senders: number;
  /** 0-1 */
  sweptShare: number;
  medianSweepSeconds: number;
  /** 0-1 */
  confidence: number;
  firstSweepAt: number;
  lastSweepAt: number;
}

export type DepositVerdict =
  | { attributed: true; attribution: DepositAttribution }
  | { attributed: false; reason: string };

const no = (reason: string): DepositVerdict => ({ attributed: false, reason });

export function judgeDepositAddress(
  history: AddressHistory,
  params: DepositParams = DEFAULT_DEPOSIT_PARAMS,
): DepositVerdict {
  if (history.truncated) return no(`more than ${params.maxTransfersPerDirection} transfers in a direction`);
  const own = history.transfers.filter((t) => t.counterparty !== history.address);
  const outs = own.filter((t) => t.out);
  const sweepsByExchange = new Map<string, HistoryTransfer[]>();
  for (const t of outs) {
    if (!t.exchange) continue;
    const list = sweepsByExchange.get(t.exchange.key) ?? [];
    list.push(t);
    sweepsByExchange.set(t.exchange.key, list);
  }
  if (sweepsByExchange.size === 0) return no("sends nothing to an exchange");
  if (sweepsByExchange.size > 1) return no(`sends to ${sweepsByExchange.size} exchanges`);
  const [key, sweeps] = [...sweepsByExchange][0] as [string, HistoryTransfer[]];
  const others = outs.length - sweeps.length;
  if (others > params.maxOtherOutShare * outs.length) {
    return no(`${others} of ${outs.length} outgoing transfers go elsewhere`);
  }
  sweeps.sort(byTime);
  const lastSweepAt = (sweeps.at(-1) as HistoryTransfer).at;
  const deposits = own.filter((t) => !t.out && t.exchange?.key !== key).sort(byTime);
  if (deposits.length === 0) return no("receives only from the exchange");
  const share = sweptShare(
    deposits.filter((t) => t.at <= lastSweepAt),
    sweeps,
  );
  if (share === undefined) return no("swept nothing it received");
  if (share < params.minSweptShare) return no(`swept ${Math.round(share * 100)}% of what it received`);
  const waits = sweepWaits(deposits, sweeps);
  if (waits.length === 0) return no("no sweep follows a deposit");
  const median = medianOf(waits);
  if (median > params.maxMedianSweepHours * 3_600) return no("funds wait too long for their sweep");
  const base = sweeps.length >= 3 ? 0.8 : sweeps.length === 2 ? 0.7 : 0.6;
  const confidence = Math.min(0.95, (base + (median <= 86_400 ? 0.1 : 0)) * share);
  return {
    attributed: true,
    attribution: {
      address: history.address,
      exchange: (sweeps[0] as HistoryTransfer).exchange?.name ?? key,
      hotWallets: [...new Set(sweeps.map((t) => t.counterparty))].sort(),
      sweeps: sweeps.length,
      received: deposits.length,
      senders: new Set(deposits.map((t) => t.counterparty)).size,
      sweptShare: Math.round(share * 1_000) / 1_000,
      medianSweepSeconds: Math.round(median),
      confidence: Math.round(confidence * 100) / 100,
      firstSweepAt: (sweeps[0] as HistoryTransfer).at,
      lastSweepAt,
    },
  };
}

const byTime = (a: HistoryTransfer, b: HistoryTransfer) =>
  a.at - b.at || (a.out === b.out ? 0 : a.out ? 1 : -1);

/** Per token, the swept fraction of what was received (at most 1), weighted by USD received or by count. */
function sweptShare(received: HistoryTransfer[], sweeps: HistoryTransfer[]): number | undefined {
  const tokens = new Map<string, { in: bigint; out: bigint; usd: number | null; count: number }>();
  for (const t of received) {
    const entry = tokens.get(t.token) ?? { in: 0n, out: 0n, usd: 0, count: 0 };
    entry.in += t.value;
    entry.count += 1;
    entry.usd = entry.usd === null || t.usd === null ? null : entry.usd + t.usd;
    tokens.set(t.token, entry);
  }
  for (const t of sweeps) {
    const entry = tokens.get(t.token);
    if (entry) entry.out += t.value;
  }
  const entries = [...tokens.values()].filter((e) => e.in > 0n);
  if (entries.length === 0) return undefined;
  const byUsd = entries.every((e) => e.usd !== null && e.usd > 0);
  let weighted = 0;
  let total = 0;
  for (const e of entries) {
    const fraction = e.out >= e.in ? 1 : Number((e.out * 1_000_000n) / e.in) / 1_000_000;
    const weight = byUsd ? (e.usd as number) : e.count;
    weighted += fraction * weight;
    total += weight;
  }
  return total > 0 ? weighted / total : undefined;
}

/** For each sweep, how long the oldest funds that arrived since the previous sweep had waited. */
function sweepWaits(deposits: HistoryTransfer[], sweeps: HistoryTransfer[]): number[] {
  const waits: number[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  let d = 0;
  for (const sweep of sweeps) {
    while (d < deposits.length && (deposits[d] as HistoryTransfer).at <= previous) d++;
    const oldest = deposits[d];
    if (oldest && oldest.at <= sweep.at) waits.push(sweep.at - oldest.at);
    previous = sweep.at;
  }
  return waits;
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
