// The Bitcoin devnet: no node runs here (no Bitcoin Core binary is available to start, and none may be downloaded),
// so the Bitcoin demo world (src/worlds/bitcoin-demo.ts, a fixed seed) is written as a bitcoin-etl export and
// imported into the store at start through `vigia import btc-etl`'s machinery, on the built-in "Vigía Bitcoin
// devnet" chain (regtest's id and addresses), with its labels and BTC's daily prices. Everything the import keeps
// comes with it: the value-proportional transfers, the CoinJoin's mixer node and the address clusters. Importing
// is idempotent, so every start does it again and a changed scenario replaces nothing it should not.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BITCOIN_DEVNET_CHAIN_ID } from "../chains/index.ts";
import { importEtl } from "../ingest/index.ts";
import type { Database } from "../platform/db/open.ts";
import type { DB } from "../schema.ts";
import {
  type BitcoinWorld,
  bitcoinDevnetWorld,
  type DevnetDataSummary,
  writeBitcoinDevnetData,
  writeBitcoinEtl,
} from "../worlds/index.ts";
import { type DemoAddress, demoAddresses } from "./addresses.ts";
import { GENESIS_TIME } from "./devnet.ts";

export { BITCOIN_DEVNET_CHAIN_ID };

export interface BitcoinDevnetReady {
  data: DevnetDataSummary;
  /** the scenario's transactions, and the transfers the import found new in the store */
  transactions: number;
  written: number;
  coinjoins: number;
}

/** The Bitcoin demo's cases worth analysing (positives), as `npm start` prints them. */
export function bitcoinDemoAddresses(world: BitcoinWorld = bitcoinDevnetWorld()): DemoAddress[] {
  return demoAddresses(world);
}

/**
 * Writes the world's export under `dir` (a temporary directory when undefined, removed afterwards), its labels and
 * prices, then imports it.
 */
export async function importBitcoinDevnet(
  database: Database<DB>,
  options: { dir?: string; world?: BitcoinWorld; now?: number } = {},
): Promise<BitcoinDevnetReady> {
  const world = options.world ?? bitcoinDevnetWorld();
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "vigia-btc-devnet-"));
  try {
    const exported = writeBitcoinEtl(world, dir, GENESIS_TIME);
    // Labels first: the sweeps into the exchanges' labelled hot wallets reveal their deposit addresses as the
    // transfers are written (src/attribution).
    const data = await writeBitcoinDevnetData(
      database.db,
      world,
      { chainId: BITCOIN_DEVNET_CHAIN_ID, firstDay: exported.firstDay, lastDay: exported.lastDay },
      options.now,
    );
    const summary = await importEtl(database, {
      chainId: BITCOIN_DEVNET_CHAIN_ID,
      chainKind: "bitcoin",
      format: "bitcoin-etl",
      bitcoinNetwork: "regtest",
      dir,
      batchRows: 5_000,
    });
    return {
      data,
      transactions: exported.transactions,
      written: summary.transfers.written,
      coinjoins: summary.bitcoin?.coinjoins ?? 0,
    };
  } finally {
    if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}
