// The benchmark world rendered onto a Tron-kind chain scores as it does on an EVM chain: a small world (eval/world)
// written twice (eval/world/etl.ts), as an EVM chain carries it and as a Tron-kind chain does (ETH as TRX with 6
// decimals, USDV as USDT at USD 1: src/worlds/render/chain-tokens.ts), imported into one real service whose chains
// file names both, and every case's subject scanned through POST .../addresses/scan-risk on each chain, the Tron one
// in base58check as its users write it. Every answer's patterns are the same on both chains, and so is the
// benchmark's scoring (eval/scoring/score.ts); so are scores and levels, but for direct deposits of a mixer pool's
// ETH denomination (see below). The Tron devnet's demo world: its injected patterns found (in memory, as
// in-memory.test.ts does for the EVM devnet's). PGlite, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateWorld } from "../../eval/scoring/in-memory.ts";
import { type ScanOutcome, scoreBenchmark } from "../../eval/scoring/score.ts";
import {
  BENCHMARK_CHAIN_ID,
  BENCHMARK_TRON_CHAIN_ID,
  type CasesFile,
  writeBenchmarkExport,
} from "../../eval/world/etl.ts";
import { parseTronAddress, tronBase58 } from "../../src/chains/address/index.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { importPrices } from "../../src/ingest/prices/import-rates.ts";
import { PATTERNS } from "../../src/risk/findings.ts";
import { EVM_TOKENS, TRON_TOKENS, TRON_USDT_ADDRESS, tronDevnetWorld } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const OPTIONS = { seed: 7, perPattern: 3, users: 60, transfers: 600 };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-eval-tron-"));
const CHAINS = [
  { id: BENCHMARK_CHAIN_ID, name: "Vigía detection benchmark", currency_symbol: "ETH" },
  {
    id: BENCHMARK_TRON_CHAIN_ID,
    name: "Vigía detection benchmark (Tron)",
    kind: "tron",
    currency_symbol: "TRX",
    currency_decimals: 6,
    // No history from TronGrid for the world's made-up addresses (as in eval/run.ts).
    explorer_api_url: null,
  },
];

let svc: TestService;
const exports: Record<number, CasesFile> = {};

beforeAll(async () => {
  svc = await startTestService({ chains: CHAINS, env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  for (const [chainId, tokens] of [
    [BENCHMARK_CHAIN_ID, EVM_TOKENS],
    [BENCHMARK_TRON_CHAIN_ID, TRON_TOKENS],
  ] as const) {
    const dir = path.join(tmp, String(chainId));
    exports[chainId] = writeBenchmarkExport(dir, OPTIONS, chainId, tokens);
    await importEtl(svc.database, { chainId, dir });
    await importLabels(svc.database.db, path.join(dir, "labels.csv"));
    await importPrices(svc.database.db, path.join(dir, "prices.csv"));
  }
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Every subject's answer on the chain, by stored (hex) address. */
async function scan(chainId: number, subjects: string[]): Promise<Map<string, ScanOutcome>> {
  const tron = chainId === BENCHMARK_TRON_CHAIN_ID;
  const out = new Map<string, ScanOutcome>();
  for (let i = 0; i < subjects.length; i += 50) {
    const batch = subjects.slice(i, i + 50);
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: auth(svc.project.keys.developer),
      payload: {
        addresses: batch.map((a) => ({ address: tron ? tronBase58(a) : a, chainId: String(chainId) })),
        maxDepth: 3,
        skipExisting: false,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const r of res.json().data.results as (ScanOutcome & { address: string })[]) {
      if (tron) expect(r.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      const parsed = tron ? parseTronAddress(r.address) : { address: r.address.toLowerCase() };
      if ("error" in parsed) throw new Error(`${r.address}: ${parsed.error}`);
      out.set(parsed.address, r);
    }
  }
  return out;
}

describe("the benchmark world on a Tron-kind chain", () => {
  it("writes the same transfers, in TRX and USDT at the same USD value", () => {
    const evm = exports[BENCHMARK_CHAIN_ID]!;
    const tron = exports[BENCHMARK_TRON_CHAIN_ID]!;
    expect(tron.cases).toEqual(evm.cases);
    expect(tron.counts).toEqual(evm.counts);
    const tokens = fs.readFileSync(path.join(tmp, String(BENCHMARK_TRON_CHAIN_ID), "tokens.csv"), "utf8");
    expect(tokens).toContain(`${TRON_USDT_ADDRESS},USDT,Tether USD,6,`);
    // One ETH at USD 2,500 is 10,000 TRX at USD 0.25: the same USD in sun.
    expect(TRON_TOKENS.units("ETH", 10n ** 18n)).toBe(10_000n * 10n ** 6n);
    const day = Date.UTC(2024, 0, 1) / 1000;
    expect(TRON_TOKENS.price("ETH", day) * 10_000).toBeCloseTo(EVM_TOKENS.price("ETH", day), 6);
    expect(TRON_TOKENS.price("USDV", day)).toBe(1);
  });

  it("scores every case the same on both chains, the Tron one scanned in base58", async () => {
    const cases = exports[BENCHMARK_CHAIN_ID]!.cases;
    const subjects = [...new Set(cases.map((c) => c.subject.toLowerCase()))];
    const evm = await scan(BENCHMARK_CHAIN_ID, subjects);
    const tron = await scan(BENCHMARK_TRON_CHAIN_ID, subjects);
    expect(evm.size).toBe(subjects.length);
    const shape = (r: ScanOutcome | undefined) => ({
      status: r?.status,
      riskScore: r?.riskScore,
      riskLevel: r?.riskLevel,
      patterns: r?.patterns,
    });
    // Direct deposits of a mixer pool's denomination score a little higher on the EVM chain: the mixing detector
    // knows Tornado Cash's pools in ETH's units (0.1, 1, 10, 100 ETH in wei: DEFAULT_MIXING_PARAMS.denominations
    // .native), which no TRX amount in sun matches, so on the Tron chain such a deposit is a mixer deposit of the
    // base confidence instead of one at a pool's exact denomination. The pattern is found on both; only the score
    // differs, and it differs for those cases alone.
    const denominated = new Set(
      cases
        .filter((c) => c.pattern === "mixing" && c.positive && c.variant.startsWith("deposit"))
        .map((c) => c.subject.toLowerCase()),
    );
    for (const subject of subjects) {
      const [onTron, onEvm] = [shape(tron.get(subject)), shape(evm.get(subject))];
      if (!denominated.has(subject)) {
        expect(onTron, subject).toEqual(onEvm);
        continue;
      }
      expect(onTron.patterns, subject).toEqual(onEvm.patterns);
      expect(onTron.riskScore, subject).toBeLessThanOrEqual(onEvm.riskScore ?? 0);
    }
    const onEvm = scoreBenchmark(cases, evm);
    const onTron = scoreBenchmark(cases, tron);
    expect(onTron.quality).toEqual(onEvm.quality);
    expect(onTron.distances).toEqual(onEvm.distances);
    expect(onEvm.failed).toEqual([]);
    // The world is small: what matters here is the sameness, and that detection works at all on both.
    const found = Object.values(onEvm.quality).reduce((n, q) => n + q.tp, 0);
    expect(found).toBeGreaterThan(0);
  }, 180_000);

  it("finds every pattern injected in the Tron devnet's demo world, and its sanctions exposure falling with distance", () => {
    const { world } = tronDevnetWorld();
    const evaluation = evaluateWorld(world);
    const injected = new Set(world.cases.map((c) => c.pattern));
    for (const p of PATTERNS.filter((p) => injected.has(p)))
      expect(evaluation.byActors[p], p).toMatchObject({ tp: 1, fn: 0 });
    const [chain] = evaluation.sanctions;
    expect(chain?.levels[0]).toBe("critical");
    expect(chain?.scores[0]).toBeGreaterThan(chain?.scores[1] ?? 100);
    expect(chain?.scores[1]).toBeGreaterThan(chain?.scores[2] ?? 100);
  });
});
