// Risk endpoints end to end on the real chain path (end to end through HTTP on the devnet scenario):
// the service runs the embedded devnet (a real anvil from @foundry-rs/anvil playing devnetWorld with the compiled
// demo ERC-20s, plus its labels and prices) and its own EVM indexer fills the store from the node; once the
// indexer's checkpoint reaches the node's head, scan-risk and the quick check go over HTTP. Asserted: every
// injected pattern is reported for its case subject with its figures (computed here from the scenario's planned
// transfers and prices) in riskReason; 1, 2 and 3 hops from the sanctioned address score in falling order, the
// first and the sanctioned address itself critical; the plain users get none of the patterns; the quick check
// reports the patterns visible within one hop, with evidence that names real transactions of the node; the chain
// path gives exactly what the direct-store path (src/worlds/render/store.ts) gives for the same world; anvil is
// gone once the service stops. In-memory PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVNET_CHAIN_ID } from "../../src/chains/registry.ts";
import { devnetScenario } from "../../src/devnet/devnet.ts";
import { num, usd, usdRange } from "../../src/risk/format.ts";
import { PATTERNS } from "../../src/risk/index.ts";
import {
  type Case,
  type PlannedTransfer,
  priceOn,
  TOKENS,
  writeWorldToStore,
} from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CHAIN = String(DEVNET_CHAIN_ID);
/** The chain the direct-store comparison writes the same world to (in LOCAL_CHAINS, indexed by nobody). */
const DIRECT_CHAIN = "1";
const INDEXED_WITHIN_MS = 60_000;

const { world, plan } = devnetScenario();
const caseOf = (pattern: string): Case => {
  const found = world.cases.find((c) => c.positive && c.pattern === pattern);
  if (!found) throw new Error(`the devnet world has no ${pattern} case`);
  return found;
};
const positives = world.cases.filter(
  (c) => c.positive && (PATTERNS as readonly string[]).includes(c.pattern),
);
const hops = world.cases
  .filter((c) => c.pattern === "sanctions_exposure" && c.variant !== "1-hop-swap")
  .sort((a, b) => (a.id < b.id ? -1 : 1));
/** The client a sanctioned address paid through the devnet's DEX pool (DemoSwap, a contract on the node). */
const swapClient = world.cases.find((c) => c.variant === "1-hop-swap");
const account = (name: string) => {
  const found = world.accounts.get(name);
  if (!found) throw new Error(`the devnet world has no account ${name}`);
  return found.address;
};
const sanctionedAddress = account("sanctioned.lazarus");
// The background users, but for the three that the seeded background traffic happens to make real (if small)
// instances of two patterns, within their definitions: user24 sends USD 88 that comes back at 110% through user2
// 24 days later (round_tripping), and user3 takes USD 215 out of Bitso and into Buda within 7 hours
// (exchange_hopping). Both paths report those alike; they are not plain users.
const NOT_PLAIN = new Set(["user2", "user3", "user24"]);
const plainUsers = [...world.accounts.keys()].filter((n) => /^user\d+$/.test(n) && !NOT_PLAIN.has(n));

const lower = (a: string) => a.toLowerCase();
/** A planned transfer's USD value, as the scenario priced it. */
const usdOf = (t: PlannedTransfer) =>
  (Number(t.amount) / 10 ** TOKENS[t.token].decimals) * priceOn(t.token, t.at);
const sum = (ts: PlannedTransfer[]) => ts.reduce((s, t) => s + usdOf(t), 0);
const between = (from: string, to: (a: string) => boolean) =>
  world.transfers.filter((t) => t.from === from && to(t.to));
const labelOf = (address: string) => world.labelled().find((a) => a.address === address)?.label;

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" },
    // Workers on: the indexer follows the devnet's node (started on any free port of 127.0.0.1).
    service: { workers: true, devnet: { port: 0 } },
  });
  const devnet = svc.devnet;
  if (!devnet) throw new Error("the service started no devnet");
  const ready = await devnet.ready;
  if (!ready?.play) throw new Error("the devnet's scenario was not played (see the devnet's log)");
  expect(ready.play.outcome).toBe("played");

  // The node's head, then the indexer's checkpoint up to it (the devnet needs no confirmations).
  const response = await fetch(devnet.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  const head = Number(BigInt(((await response.json()) as { result: string }).result));
  expect(head).toBe(plan.blocks.length);
  const db = svc.database.db;
  const deadline = Date.now() + INDEXED_WITHIN_MS;
  for (;;) {
    const checkpoint = await db
      .selectFrom("indexer_checkpoints")
      .select("block_number")
      .where("chain_id", "=", DEVNET_CHAIN_ID)
      .executeTakeFirst();
    if (checkpoint && Number(checkpoint.block_number) >= head) break;
    if (Date.now() > deadline) {
      throw new Error(
        `the indexer reached block ${checkpoint?.block_number ?? "none"} of ${head} within ${INDEXED_WITHIN_MS} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stored = await db
    .selectFrom("transfers")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("chain_id", "=", DEVNET_CHAIN_ID)
    .executeTakeFirstOrThrow();
  expect(Number(stored.n)).toBe(plan.transfers);
}, 120_000);

afterAll(async () => {
  await svc?.stop();
});

interface Result {
  address: string;
  chainId: string;
  status: string;
  analysisId: string;
  riskScore: number;
  riskLevel: string;
  riskReason: string;
  suspiciousActivity: boolean;
  patterns: string[];
  transactionGraph: { totalNodes: number; totalEdges: number; maxDepth: number };
}
interface QuickPattern {
  name: string;
  severity: string;
  involvedWallets: string[];
  involvedTxs: string[];
  usdAmount: number;
  message: string;
}
interface Quick {
  risk: number;
  reason: string;
  level: string;
  patterns: QuickPattern[];
  coverage?: unknown;
}

async function scan(addresses: string[], chainId = CHAIN, maxDepth = 3): Promise<Result[]> {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
    headers: auth(svc.project.keys.developer),
    payload: { addresses: addresses.map((address) => ({ address, chainId })), maxDepth, skipExisting: false },
  });
  expect(res.statusCode).toBe(200);
  const { summary, results } = res.json().data as { summary: { completed: number }; results: Result[] };
  expect(summary.completed).toBe(addresses.length);
  return results;
}

async function quick(address: string, chainId = CHAIN): Promise<Quick> {
  const res = await svc.app!.inject({
    method: "GET",
    url: `/v1/risk/quick?address=${address}&chainId=${chainId}`,
    headers: auth(svc.project.keys.viewer),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as Quick;
}

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(svc.devnet!.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await res.json()) as { result: T }).result;
}

/** What riskReason must say about each injected pattern, figures computed from the planned transfers. */
function expectedFigures(c: Case): string[] {
  const s = c.subject;
  switch (c.pattern) {
    case "mixing": {
      const deposits = between(s, (to) => labelOf(to)?.category === "mixer");
      return ["Mixing:", `${usd(sum(deposits))}) in ${deposits.length} transfers directly to Tornado.Cash`];
    }
    case "peel_chain": {
      const entered = world.transfers.filter((t) => t.to === s);
      return ["Peel chain of", `starting at ${s.slice(0, 6)}`, `${usd(sum(entered))} entered`];
    }
    case "structuring": {
      const counterparties = new Set(c.involved.filter((a) => a !== s));
      const sent = between(s, (to) => counterparties.has(to)).map(usdOf);
      return [
        "Structuring:",
        `Sent ${sent.length} transfers of ${usdRange(Math.min(...sent), Math.max(...sent))}`,
        `${usd(sent.reduce((a, b) => a + b, 0))} in total`,
      ];
    }
    case "round_tripping": {
      const loop = new Set(c.involved);
      const left = between(s, (to) => loop.has(to));
      return [
        "Round tripping:",
        `${usd(sum(left))} left ${s.slice(0, 6)}`,
        `after ${c.involved.length} hops`,
      ];
    }
    case "mass_wallet_creation": {
      const children = new Set(c.involved.filter((a) => a !== s));
      const funded = between(s, (to) => children.has(to));
      return [
        "Mass wallet creation:",
        `First funder of ${children.size} fresh addresses`,
        `${usd(sum(funded))} in total`,
      ];
    }
    case "wash_trading": {
      const [a, b] = c.involved as [string, string];
      const ab = between(a, (to) => to === b);
      const ba = between(b, (to) => to === a);
      return [
        "Wash trading:",
        `(${ab.length} and ${ba.length} transfers each way)`,
        `${usd(sum(ab) + sum(ba))} gross`,
      ];
    }
    case "exchange_hopping": {
      // Into the exchanges' deposit addresses, which carry no label: the service infers them (docs/decisions/0010).
      const exchangeOf = (to: string) => world.deposits.get(to)?.exchange ?? labelOf(to)?.label.split(":")[0];
      const deposits = between(s, (to) => world.deposits.has(to) || labelOf(to)?.category === "exchange");
      const names = [...new Set(deposits.map((t) => exchangeOf(t.to)))];
      // The amount moved: the largest deposit made with funds just withdrawn from the previous exchange.
      const moved = Math.max(...deposits.slice(1).map(usdOf));
      return [
        "Exchange hopping:",
        `Moved ${usd(moved)} through ${names.length} exchanges (${names.join(", ")})`,
      ];
    }
    default:
      throw new Error(`no expected figures for ${c.pattern}`);
  }
}

describe("scan-risk over HTTP on the indexed devnet", () => {
  it("reports every injected pattern for its subject, with its figures in riskReason", async () => {
    expect(positives.map((c) => c.pattern).sort()).toEqual([...PATTERNS].sort());
    const results = await scan(positives.map((c) => c.subject));
    positives.forEach((c, i) => {
      const r = results[i]!;
      expect(r.address).toBe(lower(c.subject));
      expect(r).toMatchObject({ status: "completed", chainId: CHAIN, suspiciousActivity: true });
      expect(r.patterns, c.id).toContain(c.pattern);
      expect(r.transactionGraph.totalEdges, c.id).toBeGreaterThan(0);
      for (const figure of expectedFigures(c)) expect(r.riskReason, c.id).toContain(figure);
    });
  });

  it("scores the sanctioned address and 1 hop from it critical, then falling with each hop", async () => {
    const [self, ...byHop] = await scan([sanctionedAddress, ...hops.map((c) => c.subject)]);
    expect(self).toMatchObject({ riskScore: 100, riskLevel: "critical", suspiciousActivity: true });
    expect(self!.riskReason).toContain("The address itself is labelled sanctioned (OFAC SDN: Lazarus Group");

    expect(byHop.map((r) => r.riskLevel)[0]).toBe("critical");
    const scores = byHop.map((r) => r.riskScore);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(scores[2]!);
    // Each hop's reason names the USD it received along the sanctioned chain and the distance.
    hops.forEach((c, i) => {
      const received = sum(world.transfers.filter((t) => t.to === c.subject));
      const distance =
        i === 0 ? "directly from a sanctioned address" : `sanctioned address ${i + 1} hops away`;
      expect(byHop[i]!.riskReason, c.id).toContain(`Received ${usd(received)} (100% of its incoming funds)`);
      expect(byHop[i]!.riskReason, c.id).toContain(distance);
      expect(byHop[i]!.patterns, c.id).toEqual([]);
    });
  });

  it("gives the plain users none of the patterns", async () => {
    expect(plainUsers.length).toBeGreaterThanOrEqual(20);
    const results = await scan(plainUsers.map(account));
    plainUsers.forEach((name, i) => {
      const r = results[i]!;
      expect(r.patterns, name).toEqual([]);
      expect(r.riskLevel, name).toBe("minimal");
      expect(r.suspiciousActivity, name).toBe(false);
    });
  });
});

describe("GET /risk/quick on the indexed devnet", () => {
  // The patterns an address performs within one hop; peel chains and round trips need more hops.
  const ONE_HOP = ["mixing", "structuring", "mass_wallet_creation", "wash_trading", "exchange_hopping"];

  it("reports each one-hop pattern with evidence naming real transactions of the node", async () => {
    for (const pattern of ONE_HOP) {
      const c = caseOf(pattern);
      const data = await quick(c.subject);
      const found = data.patterns.find((p) => p.name === pattern);
      expect(found, c.id).toBeDefined();
      expect(found!.involvedWallets, c.id).toContain(lower(c.subject));
      expect(found!.usdAmount, c.id).toBeGreaterThan(0);
      expect(found!.message.length, c.id).toBeGreaterThan(0);
      expect(found!.involvedTxs.length, c.id).toBeGreaterThan(0);
      for (const hash of found!.involvedTxs) {
        const receipt = await rpc<{ status: string; blockNumber: string } | null>(
          "eth_getTransactionReceipt",
          [hash],
        );
        expect(receipt?.status, `${c.id} ${hash}`).toBe("0x1");
      }
    }
    // The mixing deposits' figures: their count and USD, as planned.
    const mixing = caseOf("mixing");
    const deposits = between(mixing.subject, (to) => labelOf(to)?.category === "mixer");
    const found = (await quick(mixing.subject)).patterns.find((p) => p.name === "mixing")!;
    expect(found.involvedTxs).toHaveLength(deposits.length);
    expect(num(found.usdAmount)).toBe(num(sum(deposits)));
  });

  it("a direct counterparty of the sanctioned address and the address itself are critical", async () => {
    const oneHop = await quick(hops[0]!.subject);
    expect(oneHop).toMatchObject({ risk: 100, level: "critical" });
    expect(oneHop.reason).toMatch(/directly from a sanctioned address/);
    const self = await quick(sanctionedAddress);
    expect(self).toMatchObject({ risk: 100, level: "critical" });
  });

  it("a client paid by a sanctioned address's swap on the node's DEX pool is critical, the swap read as a conversion", async () => {
    // The transaction the sanctioned address sent: its ETH into the pool (the transaction's value) and the pool's
    // USDV to the client (a Transfer log of the demo token), as the indexer read them from the node.
    expect(swapClient).toBeDefined();
    const client = swapClient!.subject;
    const paid = world.transfers.find((t) => t.to === client && t.tx !== undefined)!;
    const check = await quick(client);
    expect(check).toMatchObject({ risk: 100, level: "critical" });
    expect(check.reason).toMatch(/directly from a sanctioned address/);
    expect(check.reason).toContain("converted via DemoSwap: ETH/USDV pool (devnet)");
    const [scanned] = await scan([client]);
    expect(scanned).toMatchObject({ riskLevel: "critical" });
    expect(scanned!.riskReason).toContain(`Received ${usd(sum([paid]))}`);
  });

  it("plain users show no pattern within one hop", async () => {
    for (const name of plainUsers) expect((await quick(account(name))).patterns, name).toEqual([]);
  });
});

describe("the chain path against the direct-store path", () => {
  it("gives the same scores, levels, patterns and reasons as the same world written straight into the store", async () => {
    await writeWorldToStore(svc.database.db, world, Number(DIRECT_CHAIN));
    const addresses = [
      ...world.cases.map((c) => c.subject),
      sanctionedAddress,
      ...plainUsers.slice(0, 10).map(account),
    ];
    const view = (results: Result[]) =>
      results.map((r) => ({
        address: r.address,
        riskScore: r.riskScore,
        riskLevel: r.riskLevel,
        patterns: r.patterns,
        riskReason: r.riskReason,
        nodes: r.transactionGraph.totalNodes,
        edges: r.transactionGraph.totalEdges,
      }));
    expect(view(await scan(addresses))).toEqual(view(await scan(addresses, DIRECT_CHAIN)));
    for (const address of addresses) {
      const [onChain, direct] = [await quick(address), await quick(address, DIRECT_CHAIN)];
      // The two rest on different data (an index, an import): their coverage differs, their verdicts do not.
      const strip = ({ coverage: _c, ...q }: Quick) => ({
        ...q,
        patterns: q.patterns.map(({ involvedTxs: _, ...p }) => p),
      });
      expect(strip(onChain), address).toEqual(strip(direct));
    }
  });
});

describe("stopping", () => {
  it("stops anvil with the service", async () => {
    const url = svc.devnet!.rpcUrl;
    await svc.stop();
    await expect(
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      }),
    ).rejects.toThrow();
  });
});
