// The attribution's writes (its verdicts, in deposit_addresses) and its view of the histories the heuristic
// judges. What it reads comes from the ledger (src/ledger/attribution-reads.ts).
import { type Kysely, sql } from "kysely";
import { attributedDepositAddresses, readHistories as readLedgerHistories } from "../ledger/index.ts";
import { exchangeKeyOfLabel, exchangeNameOfLabel } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { AddressHistory, DepositVerdict, HistoryTransfer } from "./deposit-heuristic.ts";

/** The ledger's histories of some addresses, with each exchange counterparty's key and name. */
export async function readHistories(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
  cap: number,
): Promise<{ histories: AddressHistory[]; labelled: Set<string> }> {
  const { histories, labelled } = await readLedgerHistories(db, chainId, addresses, cap);
  return {
    labelled,
    histories: histories.map((h) => ({
      ...h,
      transfers: h.transfers.map(
        ({ exchangeLabel, ...t }): HistoryTransfer => ({
          ...t,
          ...(exchangeLabel
            ? {
                exchange: {
                  key: exchangeKeyOfLabel(exchangeLabel),
                  name: exchangeNameOfLabel(exchangeLabel),
                },
              }
            : {}),
        }),
      ),
    })),
  };
}

/** Stores the verdicts (one statement), replacing earlier ones, and logs the new attributions. */
export async function saveVerdicts(
  db: Kysely<DB>,
  chainId: number,
  verdicts: { address: string; verdict: DepositVerdict }[],
): Promise<void> {
  if (verdicts.length === 0) return;
  const sorted = [...verdicts].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  const a = (v: DepositVerdict) => (v.attributed ? v.attribution : undefined);
  const iso = (unix: number | undefined) => (unix === undefined ? null : new Date(unix * 1000).toISOString());
  // A new attribution (an address not attributed before) is news for the re-screening, logged in label_changes
  // before the verdicts are written (the callers' connection may hold no transaction of its own): a crash in between
  // re-screens for nothing, and never misses news.
  const before = await attributedDepositAddresses(
    db,
    chainId,
    sorted.map((v) => v.address),
  );
  const news = sorted.flatMap((v) =>
    v.verdict.attributed && !before.has(v.address)
      ? [{ address: v.address, exchange: v.verdict.attribution.exchange }]
      : [],
  );
  if (news.length > 0)
    await db
      .insertInto("label_changes")
      .values(
        news.map((n) => ({
          chain_id: chainId,
          address: n.address,
          label: `deposit address of ${n.exchange}`,
          category: "exchange",
          source: "deposit-inference",
        })),
      )
      .execute();
  await sql`
    INSERT INTO deposit_addresses AS d (chain_id, address, attributed, reason, exchange, hot_wallets, sweeps,
      received, senders, swept_share, median_sweep_seconds, confidence, first_sweep_at, last_sweep_at, updated_at)
    SELECT ${chainId}, u.address, u.attributed, u.reason, u.exchange,
      CASE WHEN u.hot_wallets IS NULL THEN NULL ELSE string_to_array(u.hot_wallets, ',') END,
      u.sweeps, u.received, u.senders, u.swept_share, u.median_sweep_seconds, u.confidence, u.first_sweep_at,
      u.last_sweep_at, now()
    FROM unnest(
      ${sorted.map((v) => v.address)}::text[],
      ${sorted.map((v) => v.verdict.attributed)}::boolean[],
      ${sorted.map((v) => (v.verdict.attributed ? null : v.verdict.reason))}::text[],
      ${sorted.map((v) => a(v.verdict)?.exchange ?? null)}::text[],
      ${sorted.map((v) => a(v.verdict)?.hotWallets.slice(0, 20).join(",") ?? null)}::text[],
      ${sorted.map((v) => a(v.verdict)?.sweeps ?? null)}::integer[],
      ${sorted.map((v) => a(v.verdict)?.received ?? null)}::integer[],
      ${sorted.map((v) => a(v.verdict)?.senders ?? null)}::integer[],
      ${sorted.map((v) => a(v.verdict)?.sweptShare ?? null)}::real[],
      ${sorted.map((v) => a(v.verdict)?.medianSweepSeconds ?? null)}::integer[],
      ${sorted.map((v) => {
        const attribution = a(v.verdict);
        return attribution ? Math.round(attribution.confidence * 100) : null;
      })}::integer[],
      ${sorted.map((v) => iso(a(v.verdict)?.firstSweepAt))}::timestamptz[],
      ${sorted.map((v) => iso(a(v.verdict)?.lastSweepAt))}::timestamptz[]
    ) AS u(address, attributed, reason, exchange, hot_wallets, sweeps, received, senders, swept_share,
      median_sweep_seconds, confidence, first_sweep_at, last_sweep_at)
    ON CONFLICT (chain_id, address) DO UPDATE SET
      attributed = excluded.attributed, reason = excluded.reason, exchange = excluded.exchange,
      hot_wallets = excluded.hot_wallets, sweeps = excluded.sweeps, received = excluded.received,
      senders = excluded.senders, swept_share = excluded.swept_share,
      median_sweep_seconds = excluded.median_sweep_seconds, confidence = excluded.confidence,
      first_sweep_at = excluded.first_sweep_at, last_sweep_at = excluded.last_sweep_at, updated_at = now()`.execute(
    db,
  );
}
