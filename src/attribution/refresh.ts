// Keeps the deposit-address verdicts current where data enters the store. The writers call attributeTransfers
// with what they wrote, in their own transaction, so the verdicts commit (or roll back) with the transfers; label
// imports that change exchange labels call attributeAllChains. An address is re-judged from its whole history in
// the store (up to the heuristic's cap), so the order in which transfers arrive never matters: the last write
// that touches it leaves the verdict its full history gives.
import type { Kysely } from "kysely";
import {
  allCandidates,
  candidatesOfWritten,
  chainsWithTransfers,
  dropWrittenCandidates,
  exchangeLabelsDigest,
  exchangeWallets,
  knownCandidates,
  pageOfWrittenCandidates,
  type WrittenEnds,
} from "../ledger/index.ts";
import type { DB } from "../schema.ts";
import {
  DEFAULT_DEPOSIT_PARAMS,
  type DepositParams,
  type DepositVerdict,
  judgeDepositAddress,
} from "./deposit-heuristic.ts";
import { readHistories, saveVerdicts } from "./store.ts";

/** Addresses judged per statement. */
const CHUNK = 500;

export interface AttributionReport {
  /** addresses judged */
  judged: number;
  /** of those, deposit addresses */
  attributed: number;
}

/**
 * Re-judges every address the written transfers could change: the sender of any transfer to an exchange wallet,
 * and both ends of any transfer that involves a candidate already.
 */
export async function attributeTransfers(
  db: Kysely<DB>,
  chainId: number,
  transfers: readonly { from: string; to: string }[],
  params: DepositParams = DEFAULT_DEPOSIT_PARAMS,
): Promise<AttributionReport> {
  if (transfers.length === 0) return { judged: 0, attributed: 0 };
  const ends = new Set<string>();
  for (const t of transfers) {
    ends.add(t.from);
    ends.add(t.to);
  }
  const wallets = await exchangeWallets(
    db,
    chainId,
    transfers.map((t) => t.to),
  );
  const candidates = await knownCandidates(db, chainId, [...ends]);
  for (const t of transfers) {
    if (t.from !== t.to && wallets.has(t.to) && !wallets.has(t.from)) candidates.add(t.from);
  }
  for (const wallet of wallets.keys()) candidates.delete(wallet);
  return judge(db, chainId, [...candidates].sort(), params);
}

/**
 * What attributeTransfers does batch by batch, done once after a bulk write (the ETL import's COPY path) from
 * what the writer left in the database: the candidates are found in SQL (candidatesOfWritten) and judged a chunk
 * at a time, so neither the writer nor this holds them in memory. An address is judged from its whole history,
 * so judging it once at the end gives the verdict the last batch that touched it would have given.
 */
export async function attributeWritten(
  db: Kysely<DB>,
  chainId: number,
  ends: WrittenEnds,
  params: DepositParams = DEFAULT_DEPOSIT_PARAMS,
): Promise<AttributionReport> {
  const total: AttributionReport = { judged: 0, attributed: 0 };
  if ((await candidatesOfWritten(db, chainId, ends)) === 0) {
    await dropWrittenCandidates(db);
    return total;
  }
  for (let after = ""; ; ) {
    const chunk = await pageOfWrittenCandidates(db, after, CHUNK);
    if (chunk.length === 0) break;
    total.judged += chunk.length;
    total.attributed += await judgeChunk(db, chainId, chunk, params);
    after = chunk[chunk.length - 1] as string;
  }
  await dropWrittenCandidates(db);
  return total;
}

/** Re-judges every candidate of every chain (after exchange labels changed). */
export async function attributeAllChains(
  db: Kysely<DB>,
  params: DepositParams = DEFAULT_DEPOSIT_PARAMS,
): Promise<AttributionReport> {
  const total: AttributionReport = { judged: 0, attributed: 0 };
  for (const chainId of await chainsWithTransfers(db)) {
    const report = await judge(db, chainId, await allCandidates(db, chainId), params);
    total.judged += report.judged;
    total.attributed += report.attributed;
  }
  return total;
}

/**
 * Runs `change` (a write of labels) and, when it changed any exchange label, re-judges every candidate: who is an
 * exchange wallet decides who is a deposit address. Returns the change's result and the re-judgement, if any.
 */
export async function afterExchangeLabelChange<T>(
  db: Kysely<DB>,
  change: () => Promise<T>,
): Promise<{ result: T; attribution?: AttributionReport }> {
  const before = await exchangeLabelsDigest(db);
  const result = await change();
  if ((await exchangeLabelsDigest(db)) === before) return { result };
  return { result, attribution: await attributeAllChains(db) };
}

async function judge(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
  params: DepositParams,
): Promise<AttributionReport> {
  let attributed = 0;
  for (let i = 0; i < addresses.length; i += CHUNK) {
    attributed += await judgeChunk(db, chainId, addresses.slice(i, i + CHUNK), params);
  }
  return { judged: addresses.length, attributed };
}

/** Judges and saves up to CHUNK addresses; returns how many are deposit addresses. */
async function judgeChunk(
  db: Kysely<DB>,
  chainId: number,
  chunk: readonly string[],
  params: DepositParams,
): Promise<number> {
  let attributed = 0;
  const { histories, labelled } = await readHistories(db, chainId, chunk, params.maxTransfersPerDirection);
  const verdicts = histories.map((history) => {
    const verdict: DepositVerdict = labelled.has(history.address)
      ? { attributed: false, reason: "labelled" }
      : judgeDepositAddress(history, params);
    if (verdict.attributed) attributed++;
    return { address: history.address, verdict };
  });
  await saveVerdicts(db, chainId, verdicts);
  return attributed;
}
