// The service with its workers on: it follows a chain with an rpc_url by itself, and GET /chains/{id} of that
// chain (no Blockscout) reports the index's totals; closing the service stops the follower first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { Anvil, CHAIN_ID } from "./support/anvil.ts";
import { contracts } from "./support/contracts.ts";
import { until, waitIndexed } from "./support/harness.ts";
import { Scenario } from "./support/scenario.ts";

let anvil: Anvil;
let service: TestService;
let scenario: Scenario;

beforeAll(async () => {
  contracts();
  anvil = await Anvil.start();
  scenario = await Scenario.start(anvil);
  const token = await scenario.deploy("TestToken", ["Service Dollar", "SUSD", 6]);
  for (let i = 0; i < 5; i++) {
    await scenario.someNativeTransfers(2);
    await scenario.mint(token, scenario.account(1), 1n + BigInt(i));
    await scenario.mine();
  }
  service = await startTestService({
    chains: [
      { id: CHAIN_ID, name: "Vigía devnet", currency_symbol: "ETH", rpc_url: anvil.url },
      // An enabled chain without rpc_url gets no follower.
      { id: 137, name: "Polygon PoS", currency_symbol: "POL" },
    ],
    service: { workers: true },
  });
});

afterAll(async () => {
  await service?.stop();
  await anvil?.stop();
});

describe("the service's workers", () => {
  it("follow the chains with an rpc_url, and only those", async () => {
    expect(service.indexers?.followers.map((f) => f.chainId)).toEqual([CHAIN_ID]);
    await waitIndexed(service.database.db, anvil, await anvil.blockNumber());
  });

  it("GET /chains/{id} reports the index's totals for a chain without Blockscout", async () => {
    const head = await anvil.blockNumber();
    const transactions = new Set(scenario.expected.map((t) => t.txHash)).size;
    const addresses = new Set(scenario.expected.flatMap((t) => [t.from, t.to])).size;
    let body: { data: Record<string, unknown> } | undefined;
    await until("the totals", async () => {
      const res = await service.app!.inject({
        method: "GET",
        url: `/v1/chains/${CHAIN_ID}`,
        headers: auth(service.project.keys.viewer),
      });
      body = res.json();
      return body?.data.total_blocks === String(head + 1n);
    });
    expect(body?.data).toMatchObject({
      chain_id: CHAIN_ID,
      stats_source: "index",
      total_blocks: String(head + 1n),
      total_transactions: String(transactions),
      // Every transfer party, plus the contracts marked (the token itself is a party of none of them).
      total_addresses: String(addresses + 1),
    });
    const other = await service.app!.inject({
      method: "GET",
      url: "/v1/chains/137",
      headers: auth(service.project.keys.viewer),
    });
    expect(other.json().data).toMatchObject({ total_blocks: null, total_transactions: null });
  });

  it("closing the service stops the follower before the database closes", async () => {
    const indexers = service.indexers;
    await service.close();
    expect(indexers?.status()[0]?.state).toBe("stopped");
  });
});
