// The Bitcoin devnet: its seeded world imported into the store as `vigia serve` does at start, then read through the
// API as an officer would. Each pattern injected in Bitcoin's own shape (a peel hop is one transaction with fresh
// change, a mix is a WabiSabi round, a hop between exchanges goes through unlabelled deposit addresses) is found for
// its subject by a scan at depth 3; the false friends are not; the ordinary users' spending with fresh change is
// not taken for a peel chain; the sanctions exposure falls with each hop; the mix's participant has its cluster
// with the round excluded; importing again changes nothing. PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exposureEs } from "../../src/analysis/index.ts";
import { BITCOIN_DEVNET_CHAIN_ID, BUILT_IN_CHAINS } from "../../src/chains/index.ts";
import { bitcoinDemoAddresses, importBitcoinDevnet } from "../../src/devnet/bitcoin-devnet.ts";
import { BITCOIN_EXAMPLE } from "../../src/devnet/bitcoin-examples.ts";
import { bitcoinDevnetWorld } from "../../src/worlds/index.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const CHAIN = String(BITCOIN_DEVNET_CHAIN_ID);
const world = bitcoinDevnetWorld();
let svc: TestService;
let first: Awaited<ReturnType<typeof importBitcoinDevnet>>;

beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_LOG_LEVEL: process.env.DEBUG_LOG ? "error" : "silent" },
    chains: [...LOCAL_CHAINS, BUILT_IN_CHAINS.find((c) => c.id === BITCOIN_DEVNET_CHAIN_ID)!],
  });
  first = await importBitcoinDevnet(svc.database, { world });
}, 120_000);

afterAll(async () => {
  await svc?.stop();
});

interface Result {
  address: string;
  riskScore: number;
  riskLevel: string;
  riskReason: string;
  patterns: string[];
}

async function scan(addresses: string[], maxDepth = 3): Promise<Result[]> {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
    headers: auth(svc.project.keys.developer),
    payload: {
      addresses: addresses.map((address) => ({ address, chainId: CHAIN })),
      maxDepth,
      skipExisting: false,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.results as Result[];
}

describe("the Bitcoin devnet", () => {
  it("imports its world: every transaction, the CoinJoin as a mix, and nothing new the second time", async () => {
    expect(first.transactions).toBe(world.txs.length);
    expect(first.written).toBeGreaterThan(world.txs.length);
    expect(first.coinjoins).toBe(1);
    expect(first.data.labels.labels).toBe(world.labels.size);
    const again = await importBitcoinDevnet(svc.database, { world });
    expect(again.written).toBe(0);
  });

  it("finds each injected pattern for its subject, as Bitcoin shapes it", async () => {
    const cases = world.cases.filter(
      (c) => c.positive && c.pattern !== "sanctions_exposure" && c.pattern !== "sanctioned",
    );
    expect(cases.map((c) => c.pattern).sort()).toEqual([
      "exchange_hopping",
      "mixing",
      "peel_chain",
      "structuring",
    ]);
    const results = await scan(cases.map((c) => c.subject));
    cases.forEach((c, i) => {
      expect(results[i]?.address).toBe(c.subject);
      expect(results[i]?.patterns, `${c.id}: ${results[i]?.riskReason}`).toContain(c.pattern);
    });
    const byPattern = Object.fromEntries(cases.map((c, i) => [c.pattern, results[i] as Result]));
    // At depth 3 the scan sees the chain's first three hops; at 7, all six.
    expect(byPattern.peel_chain?.riskReason).toContain("Peel chain of 3 hops");
    const [whole] = await scan([byPattern.peel_chain!.address], 7);
    expect(whole?.riskReason).toContain("Peel chain of 6 hops");
    expect(byPattern.mixing?.riskReason).toContain("CoinJoin (wabisabi");
    expect(byPattern.exchange_hopping?.riskReason).toMatch(
      /through 2 exchanges \((Kraken, Bitso|Bitso, Kraken)\)/,
    );
    expect(byPattern.structuring?.riskReason, byPattern.structuring?.riskReason).toContain(
      "Received 4 transfers",
    );
  });

  it("leaves the false friends and the ordinary users' spending with fresh change alone", async () => {
    const friends = world.cases.filter((c) => !c.positive);
    expect(friends.length).toBe(3);
    const results = await scan(friends.map((c) => c.subject));
    friends.forEach((c, i) => {
      expect(results[i]?.patterns, `${c.id}: ${results[i]?.riskReason}`).not.toContain(c.pattern);
    });
    // Every ordinary user's first address: paid by an exchange, paying merchants and friends with change to
    // fresh addresses. None is a peel chain, structuring or exchange hopping.
    const users = Array.from({ length: 30 }, (_, i) => world.address(`user.${String(i).padStart(2, "0")}.0`));
    const plain = await scan(users);
    const flagged = plain.filter((r) => r.patterns.some((p) => p !== "mixing"));
    expect(flagged.map((r) => `${r.address}: ${r.patterns}`)).toEqual([]);
  });

  it("scores the sanctioned address critical and its exposure falling with each hop", async () => {
    const [sanctioned] = world.cases.filter((c) => c.pattern === "sanctioned");
    const hops = world.cases.filter((c) => c.id.startsWith("btc-sanctions-"));
    const [self, ...byHop] = await scan([sanctioned!.subject, ...hops.map((c) => c.subject)]);
    expect(self).toMatchObject({ riskScore: 100, riskLevel: "critical" });
    expect(byHop[0]?.riskLevel).toBe("critical");
    expect(byHop[0]?.riskReason).toContain("directly from a sanctioned address");
    const scores = byHop.map((r) => r.riskScore);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(scores[2]!);
    expect(byHop[2]?.riskScore).toBeGreaterThan(0);
  });

  it("reads exposure by cluster: an address spent together with one a sanctioned address paid", async () => {
    const c = world.cases.find((x) => x.id === "btc-cluster")!;
    const quick = await svc.app!.inject({
      method: "GET",
      url: `/v1/risk/quick?address=${c.subject}&chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(quick.statusCode, quick.body).toBe(200);
    const data = quick.json().data;
    expect(data.level, data.reason).toBe("critical");
    expect(data.reason, data.reason).toMatch(
      /^Same owner as bcrt1q\w{4}…\w{4} by common inputs \(a cluster of 2 addresses spent together\), which received USD [\d,]+ \(100% of its incoming funds\) directly from a sanctioned address \(OFAC SDN: Lazarus Group \(devnet\)\)/,
    );
    // The scan's verdict says whose exposure it is, and in Spanish too.
    const [result] = await scan([c.subject]);
    expect(result?.riskLevel).toBe("critical");
    expect(result?.riskReason).toContain("Same owner as");
    const owner = { address: world.address("cluster.holder.0"), clusterSize: 2 };
    expect(
      exposureEs({
        category: "sanctioned",
        direction: "incoming",
        hops: 1,
        usd: 30_863,
        share: 1,
        counterparties: [{ address: "x", label: "OFAC SDN: Lazarus Group (devnet)" }],
        via: [],
        txs: [],
        drivesScore: true,
        sameOwnerAs: owner,
      }),
    ).toBe(
      "Del mismo dueño que bcrt1qjhgz…0p6r por entradas comunes (un clúster de 2 direcciones gastadas juntas), que " +
        "recibió USD 30,863 (100% de sus fondos entrantes) directamente de una dirección sancionada " +
        "(OFAC SDN: Lazarus Group (devnet))",
    );
    // The wallet report names whose path it is.
    const report = await svc.app!.inject({
      method: "GET",
      url: `/v1/wallets/${c.subject}/report?chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data).toContain(
      `Of ${world.address("cluster.holder.0")}, the same owner's by common inputs (a cluster of 2 addresses)`,
    );
    // Its address alone (no cluster lent): a payment from an exchange to a merchant, nothing risky.
    const alone = await svc.app!.inject({
      method: "GET",
      url: `/v1/risk/quick?address=${world.address("friend.shopper.0")}&chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(alone.json().data.reason).not.toContain("Same owner as");
  });

  it("reads exposure by cluster in an investigation, layer by layer, with the address the one root", async () => {
    const c = world.cases.find((x) => x.id === "btc-cluster")!;
    const created = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/investigations`,
      headers: auth(svc.project.keys.developer),
      payload: { name: "cluster", wallet: c.subject, chainId: CHAIN, maxDepth: 2 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { analysis_id: id, status } = created.json().data;
    expect(status).toBe("completed");
    let lastScore: number | undefined;
    for (const layer of [0, 1]) {
      const res = await svc.app!.inject({
        method: "GET",
        url: `/v1/analysis/${id}/layers/${layer}`,
        headers: auth(svc.project.keys.viewer),
      });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.riskLevel, data.riskReason).toBe("critical");
      expect(data.riskReason).toMatch(/^Same owner as bcrt1q\w{4}…\w{4} by common inputs/);
      // The other address of the cluster was read beside the subject, and is in the graph the viewer draws.
      expect(data.cumulativeGraph.rootAddress).toBe(c.subject);
      expect(Object.keys(data.cumulativeGraph.nodes)).toContain(world.address("cluster.holder.0"));
      lastScore = data.riskScore;
    }
    // Stored between layers without its clusters (they are read again), the investigation's score is the last
    // layer's, lent exposure and all.
    expect(created.json().data.risk_score).toBe(lastScore);
  });

  it("lends nothing between an exchange's customers: its deposit addresses are one cluster, the exchange's", async () => {
    const deposits = await svc.database.db
      .selectFrom("deposit_addresses")
      .select("address")
      .where("chain_id", "=", BITCOIN_DEVNET_CHAIN_ID)
      .where("attributed", "=", true)
      .orderBy("address")
      .execute();
    expect(deposits.length).toBeGreaterThan(20);
    // The sweeps spent them together: one stored cluster per exchange, of many addresses.
    const cluster = await svc.app!.inject({
      method: "GET",
      url: `/v1/clusters/${deposits[0]!.address}?chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(cluster.json().data.size).toBeGreaterThan(5);
    // Among them is the mixing user's post-mix deposit, whose exposure is a mixer's: no other customer's deposit
    // address borrows it.
    const results = await scan(deposits.slice(0, 50).map((d) => d.address));
    for (const r of results) expect(r.riskReason, r.address).not.toContain("Same owner as");
  });

  it("answers the mix participant's cluster with the round excluded, and prints its cases for npm start", async () => {
    const mixing = world.cases.find((c) => c.pattern === "mixing")!;
    const res = await svc.app!.inject({
      method: "GET",
      url: `/v1/clusters/${mixing.subject}?chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(res.statusCode, res.body).toBe(200);
    const cluster = res.json().data;
    expect(cluster.coinjoinsExcluded).toHaveLength(1);
    expect(cluster.coinjoinsExcluded[0]).toMatchObject({ kind: "wabisabi", confidence: "high" });
    // The OpenAPI document's example is this very answer.
    expect(BITCOIN_EXAMPLE.address).toBe(mixing.subject);
    expect({ ...cluster, updatedAt: "" }).toEqual({ ...BITCOIN_EXAMPLE.cluster, updatedAt: "" });
    expect(bitcoinDemoAddresses(world).map((a) => a.pattern)).toEqual([
      "sanctions_exposure",
      "sanctions_exposure",
      "sanctions_exposure",
      "mixing",
      "sanctions_exposure",
      "peel_chain",
      "structuring",
      "exchange_hopping",
      "sanctioned",
    ]);
  });
});
