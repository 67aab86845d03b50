// Following a Bitcoin Core node (src/chains/indexer/bitcoin-follower.ts) against a stand-in that answers Core's
// JSON-RPC from blocks in getblock's verbosity-3 shape (support/bitcoin-core.ts; no node can run here): mainnet
// blocks 50,001-50,002 (bitcoin-etl's sample, test/fixtures/bitcoin-etl, written as Core writes them) are stored as
// exactly the transfers the bitcoin-etl import stores for them; on regtest, a reorg of two blocks replaced by three
// unwinds the orphaned transfers and stores the new branch, keeping the address clusters; a node of another network
// stops the follower with why; wrong credentials fail with the node's 401 and are retried.
import fs from "node:fs";
import { bech32 } from "@scure/base";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FollowerEvent, type Indexers, startIndexers } from "../../src/chains/indexer/index.ts";
import type { ChainConfig } from "../../src/chains/registry.ts";
import type { CoreBlock, CoreScriptPubKey, CoreTransaction } from "../../src/chains/rpc/index.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { fixture } from "../support/fixtures.ts";
import {
  coinbase,
  coreBlock,
  GENESIS,
  hashOf,
  payment,
  type StandInCore,
  startStandInCore,
} from "./support/bitcoin-core.ts";
import { checkpointOf, LogSink, until } from "./support/harness.ts";

const REGTEST = 1_181_622_790;
const bcrt = (n: number) => bech32.encode("bcrt", [0, ...bech32.toWords(new Uint8Array(20).fill(n))]);

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let node: StandInCore;
let indexers: Indexers | undefined;
const events: FollowerEvent[] = [];
const log = new LogSink();

const chain = (id: number, network: "mainnet" | "regtest", url: string, start: number): ChainConfig => ({
  id,
  name: `Bitcoin ${network}`,
  kind: "bitcoin",
  bitcoin_network: network,
  currency_symbol: "BTC",
  currency_decimals: 8,
  explorer_url: null,
  blockscout_url: null,
  explorer_api_url: null,
  rpc_url: url,
  coin_image: null,
  enabled: true,
  start_block: start,
  confirmations: 0,
});

function follow(config: ChainConfig) {
  indexers = startIndexers({
    database,
    chains: [config],
    log,
    tuning: { pollIntervalMs: 20, lockRetryMs: 100 },
    backoff: { initialMs: 20, maxMs: 100 },
    hooks: { onEvent: (event) => events.push(event) },
  });
  return indexers;
}

beforeEach(async () => {
  database = await openTestDatabase();
  events.length = 0;
  log.entries.length = 0;
});
afterEach(async () => {
  await indexers?.stop();
  indexers = undefined;
  await node?.close();
  await database.drop();
});

const transfers = async (chainId: number) =>
  (
    await sql<{
      tx_hash: string;
      log_index: number;
      from_address: string;
      to_address: string;
      value: string;
    }>`
      SELECT tx_hash, log_index, from_address, to_address, value::text AS value, block_number::text AS block,
        block_time FROM transfers WHERE chain_id = ${chainId} ORDER BY tx_hash, log_index`.execute(
      database.db,
    )
  ).rows.map((r) => ({
    ...r,
    block_time: new Date((r as unknown as { block_time: Date }).block_time).toISOString(),
  }));

/** bitcoin-etl's sample (mainnet blocks 50,001-50,002) as Core's getblock writes it with verbosity 3. */
function sampleAsCore(): CoreBlock[] {
  const read = (file: string) =>
    fs
      .readFileSync(`${fixture("bitcoin-etl")}/${file}`, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  type EtlPart = { type: string; addresses: string[]; value: number; script_hex: string; index: number };
  // Core names no address for a pay-to-pubkey output (since Core 22), only its script, which the follower reads as
  // its key's P2PKH address. An input's spent script is not in the sample (its script_hex is the signature): its
  // prevout names the address bitcoin-etl gives, as Core's `addresses` did.
  const script = (p: EtlPart): CoreScriptPubKey =>
    p.type === "pubkey"
      ? { type: "pubkey", hex: p.script_hex }
      : { type: p.type, hex: p.script_hex, ...(p.addresses.length === 1 ? { address: p.addresses[0] } : {}) };
  const spent = (p: EtlPart): CoreScriptPubKey => ({ type: p.type, addresses: p.addresses });
  const txs = read("transactions.json");
  let parent = hashOf("block 50,000 (not in the sample)");
  return read("blocks.json").map((b: { hash: string; number: number; timestamp: number }) => {
    const tx = txs
      .filter((t: { block_number: number }) => t.block_number === b.number)
      .map(
        (t: {
          hash: string;
          is_coinbase: boolean;
          inputs: EtlPart[];
          outputs: EtlPart[];
        }): CoreTransaction => ({
          txid: t.hash,
          vin: t.is_coinbase
            ? [{ coinbase: "0415112a1c02cc00" }]
            : t.inputs.map((i) => ({
                txid: "00".repeat(32),
                vout: 0,
                prevout: { value: i.value / 1e8, scriptPubKey: spent(i) },
              })),
          vout: t.outputs.map((o) => ({ value: o.value / 1e8, n: o.index, scriptPubKey: script(o) })),
        }),
      );
    const block = { hash: b.hash, height: b.number, time: b.timestamp, previousblockhash: parent, tx };
    parent = b.hash;
    return block;
  });
}

describe("following Bitcoin Core", () => {
  it("stores mainnet blocks as exactly the transfers the bitcoin-etl import stores for them", async () => {
    node = await startStandInCore({ user: "vigia", password: "s3cret/word", chain: "main" });
    node.blocks.set(0, { hash: GENESIS.main, height: 0, time: 1231006505, tx: [] });
    for (const block of sampleAsCore()) node.blocks.set(block.height, block);
    // The credentials travel as basic authentication, the password's '/' percent-encoded in the URL.
    follow(chain(5000, "mainnet", node.url.replace("s3cret/word", "s3cret%2Fword"), 50_001));
    await until(
      "block 50,002 followed",
      async () => (await checkpointOf(database.db, 5000))?.number === 50_002n,
    );
    await importEtl(database, {
      chainId: 177_005_167,
      chainKind: "bitcoin",
      format: "bitcoin-etl",
      dir: fixture("bitcoin-etl"),
    });
    const followed = await transfers(5000);
    expect(followed).toHaveLength(3);
    expect(followed).toEqual(await transfers(177_005_167));
    expect(node.calls).toContain("getblock");
  });

  it("unwinds a reorg to the common ancestor and stores the new branch, keeping the clusters", async () => {
    node = await startStandInCore({ user: "u", password: "p", chain: "regtest" });
    const [miner, sanctioned, mule, client, other, ownerA, ownerB, shop] = [1, 2, 3, 4, 5, 6, 7, 8].map(
      bcrt,
    ) as string[];
    const a: CoreBlock[] = [{ hash: GENESIS.regtest, height: 0, time: 1_296_688_602, tx: [] }];
    const extra: Record<number, CoreTransaction[]> = {
      5: [payment("s-m", [[sanctioned as string, 1]], [[mule as string, 0.99]])],
      6: [
        payment(
          "co",
          [
            [ownerA as string, 0.5],
            [ownerB as string, 0.5],
          ],
          [[shop as string, 0.99]],
        ),
      ],
      9: [payment("m-c", [[mule as string, 0.99]], [[client as string, 0.98]])],
    };
    for (let h = 1; h <= 10; h++) {
      a.push(
        coreBlock(`a${h}`, h, a[h - 1]?.hash, [coinbase(`a${h}`, miner as string), ...(extra[h] ?? [])]),
      );
    }
    for (const block of a) node.blocks.set(block.height, block);
    follow(chain(REGTEST, "regtest", node.url, 1));
    await until(
      "block 10 followed",
      async () => (await checkpointOf(database.db, REGTEST))?.hash === a[10]?.hash,
    );
    const mc = hashOf("m-c");
    expect((await transfers(REGTEST)).filter((t) => t.tx_hash === mc)).toHaveLength(1);

    // Blocks 9 and 10 orphaned; the new branch spends the mule's coin to another address, and is one block longer.
    const b: CoreBlock[] = a.slice(0, 9);
    const extraB: Record<number, CoreTransaction[]> = {
      9: [payment("m-o", [[mule as string, 0.99]], [[other as string, 0.985]])],
    };
    for (let h = 9; h <= 11; h++) {
      b.push(
        coreBlock(`b${h}`, h, b[h - 1]?.hash, [coinbase(`b${h}`, miner as string), ...(extraB[h] ?? [])]),
      );
    }
    node.blocks.clear();
    for (const block of b) node.blocks.set(block.height, block);
    await until(
      "block 11 of the new branch followed",
      async () => (await checkpointOf(database.db, REGTEST))?.hash === b[11]?.hash,
    );

    expect(events.find((e) => e.kind === "reorg")).toMatchObject({ from: 10n, ancestor: 8n, blocks: 2 });
    const after = await transfers(REGTEST);
    expect(after.filter((t) => t.tx_hash === mc)).toEqual([]);
    expect(after.filter((t) => t.tx_hash === hashOf("m-o"))).toMatchObject([
      { from_address: mule, to_address: other, value: "98500000" },
    ]);
    const { rows: blocks } = await sql<{ hash: string }>`
      SELECT hash FROM blocks WHERE chain_id = ${REGTEST} AND number >= 8 ORDER BY number`.execute(
      database.db,
    );
    expect(blocks.map((r) => r.hash)).toEqual([a[8], b[9], b[10], b[11]].map((x) => x?.hash));
    // The co-spend of block 6 made one cluster of its two inputs.
    const { rows: cluster } = await sql<{ size: number }>`
      SELECT c.size FROM utxo_cluster_members m JOIN utxo_clusters c ON c.chain_id = m.chain_id AND c.key = m.key
      WHERE m.chain_id = ${REGTEST} AND m.address = ${ownerB}`.execute(database.db);
    expect(cluster).toEqual([{ size: 2 }]);
    expect(log.count("warn", /reorg: unwound/)).toBe(1);
  });

  it("stops following a node of another network, and says why; retries a node that refuses its credentials", async () => {
    node = await startStandInCore({ user: "u", password: "p", chain: "main" });
    node.blocks.set(0, { hash: GENESIS.main, height: 0, time: 1231006505, tx: [] });
    const followed = follow(chain(REGTEST, "regtest", node.url, 0));
    await until("the follower to stop", () => followed.status()[0]?.state === "stopped");
    expect(followed.status()[0]?.stoppedReason).toMatch(/serves Bitcoin's "main" chain, not "regtest"/);
    await followed.stop();

    const wrong = follow(chain(REGTEST, "regtest", node.url.replace("u:p@", "u:wrong@"), 0));
    await until("a failure", () => (wrong.status()[0]?.failures ?? 0) >= 2);
    expect(wrong.status()[0]).toMatchObject({
      state: "failing",
      lastError: expect.stringMatching(/HTTP 401/),
    });
    expect(await checkpointOf(database.db, REGTEST)).toBeUndefined();
  });
});
