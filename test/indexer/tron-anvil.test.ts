// The indexer on a Tron-kind chain, against a real anvil serving Tron mainnet's chain id (728126428) with a USDT-like
// contract: its TRC-20 transfers are stored in the service's hex form, its AddedBlackList events become
// `blocklisted` labels (source category blacklisted_by_issuer) written through src/ingest and logged for the
// re-screening, RemovedBlackList takes the label back, and a reorg unwinds both the transfers and the freezes of the
// orphaned blocks. (Anvil speaks Ethereum's JSON-RPC, not Tron's subset: tron-node.test.ts checks those paths.)
import { encodeDeployData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Indexers, startIndexers } from "../../src/chains/indexer/index.ts";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { issuerFreezeLabels } from "../../src/ingest/labels/index.ts";
import { labelChangesAfter, labelRowsOf } from "../../src/ledger/index.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { Anvil } from "./support/anvil.ts";
import { checkpointOf, devnetChain, LogSink, until } from "./support/harness.ts";
import { Scenario, sortTransfers, storedTransfers, ZERO } from "./support/scenario.ts";
import { tronUsdt } from "./support/tron-usdt.ts";

const TRON = TRON_MAINNET_ID;
let anvil: Anvil;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let scenario: Scenario;
let indexers: Indexers | undefined;
let usdt: string;

beforeAll(async () => {
  tronUsdt();
  [anvil, database] = await Promise.all([Anvil.start({ chainId: TRON }), openTestDatabase()]);
  scenario = await Scenario.start(anvil);
  const { abi, bytecode } = tronUsdt();
  const hash = await anvil.rpc<string>("eth_sendTransaction", [
    { from: scenario.account(0), data: encodeDeployData({ abi, bytecode, args: [] }), gas: "0x4c4b40" },
  ]);
  await anvil.rpc("evm_mine");
  const receipt = await anvil.rpc<{ contractAddress: string }>("eth_getTransactionReceipt", [hash]);
  usdt = receipt.contractAddress.toLowerCase();
});

afterAll(async () => {
  await indexers?.stop();
  await anvil?.stop();
  await database?.drop();
});

function start() {
  indexers = startIndexers({
    database,
    chains: [devnetChain(anvil.url, { id: TRON, name: "Tron (anvil)", kind: "tron", confirmations: 0 })],
    log: new LogSink(),
    tuning: { pollIntervalMs: 20, lockRetryMs: 100, issuerFreezeContracts: { [TRON]: [usdt] } },
    backoff: { initialMs: 20, maxMs: 250 },
    hooks: { issuerFreezes: issuerFreezeLabels },
  });
}

async function waitHead() {
  const head = await anvil.rpc<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
  await until(
    "the head to be indexed",
    async () => (await checkpointOf(database.db, TRON))?.hash === head.hash,
  );
}

const call = (
  from: string,
  fn: string,
  args: unknown[],
  transfers: { from: string; to: string; value: bigint }[],
) =>
  scenario.call(from, usdt, tronUsdt().abi, fn, args, {
    transfers: transfers.map((t) => ({ token: usdt, from: t.from, to: t.to, value: String(t.value) })),
  });

const freezeLabels = async (address: string) =>
  (await labelRowsOf(database.db, address, [TRON])).filter((l) => l.source.startsWith("issuer-freeze:"));

describe("the indexer on a Tron chain (anvil, chain id 728126428)", () => {
  it("stores TRC-20 transfers in the hex form and labels an address the issuer froze", async () => {
    const [a, b] = [scenario.account(1), scenario.account(2)];
    await call(a, "mint", [a, 1_000_000n], [{ from: ZERO, to: a, value: 1_000_000n }]);
    await scenario.mine();
    await call(a, "transfer", [b, 250_000n], [{ from: a, to: b, value: 250_000n }]);
    await call(a, "addBlackList", [b], []);
    await scenario.mine();
    start();
    await waitHead();

    const stored = await storedTransfers(database.db, TRON);
    expect(stored).toEqual(sortTransfers(scenario.expected));
    for (const t of stored)
      for (const end of [t.from, t.to, t.token]) expect(end).toMatch(/^0x[0-9a-f]{40}$/);

    expect(await freezeLabels(b)).toEqual([
      expect.objectContaining({
        chain_id: TRON,
        category: "blocklisted",
        source: `issuer-freeze:${usdt}`,
        label: expect.stringMatching(
          /^frozen by the issuer of token 0x[0-9a-f]{40} \(AddedBlackList in block \d+/,
        ),
      }),
    ]);
    const changes = await labelChangesAfter(database.db, "0", 100);
    expect(changes.filter((c) => c.address === b)).toEqual([
      expect.objectContaining({ chainId: TRON, category: "blocklisted", source: `issuer-freeze:${usdt}` }),
    ]);
    expect(await freezeLabels(a)).toEqual([]);
  });

  it("a reorg unwinds the orphaned blocks' transfers and freezes; a release removes the label", async () => {
    const [a, b, c] = [scenario.account(1), scenario.account(2), scenario.account(3)];
    const kept = [...scenario.expected];
    const snapshot = await anvil.rpc<string>("evm_snapshot");
    await call(a, "transfer", [c, 7_000n], [{ from: a, to: c, value: 7_000n }]);
    await call(a, "addBlackList", [c], []);
    await scenario.mine();
    await waitHead();
    expect(await freezeLabels(c)).toHaveLength(1);
    expect(await storedTransfers(database.db, TRON)).toEqual(sortTransfers(scenario.expected));

    await anvil.rpc("evm_revert", [snapshot]);
    scenario.replaceExpected(kept);
    // The new side: longer than the orphaned one, with other transfers, and B released.
    await call(a, "transfer", [b, 9_000n], [{ from: a, to: b, value: 9_000n }]);
    await scenario.mine();
    await call(a, "removeBlackList", [b], []);
    await scenario.mine();
    await waitHead();

    expect(await storedTransfers(database.db, TRON)).toEqual(sortTransfers(scenario.expected));
    expect(await freezeLabels(c)).toEqual([]);
    expect(await freezeLabels(b)).toEqual([]);
  });
});
