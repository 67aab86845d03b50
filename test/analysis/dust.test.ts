// Dust end to end (docs/decisions/0030): a small world written to the store (src/worlds/render/store.ts), then
// scan-risk at every depth, the stored result, the wallet verdict and GET /risk/quick through HTTP. An ordinary user
// sent USD 2.39 unsolicited by a sanctioned address is low (never critical), with "unsolicited" in the reason and
// the exposure entry marked so; the same receipt spent onward, and a dollar sent to the sanctioned address, stay
// critical; an unsolicited withdrawal from a mixer is not the user's mixing. In-memory PGlite, or PostgreSQL with
// DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredResult } from "../../src/analysis/result.ts";
import { getAnalysis } from "../../src/analysis/store.ts";
import { latestVerdict } from "../../src/analysis/verdict.ts";
import { SCORING_MODEL_VERSION } from "../../src/risk/index.ts";
import { SCENARIO_START, writeWorldToStore } from "../../src/worlds/index.ts";
import { DAY, HOUR, World } from "../../src/worlds/world.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
const CHAIN = 1;
const T = SCENARIO_START + 20 * DAY;

const world = new World("dust");
const lazarus = world.account("lazarus", { label: "OFAC SDN: Lazarus Group", category: "sanctioned" });
const pool = world.contract("pool", { label: "Tornado.Cash: 0.1 ETH", category: "mixer" });
const employer = world.account("employer");
const shop = world.account("shop");
/** The user: USD 4,775 of wages, USD 2.39 from a sanctioned address, an ordinary purchase. */
const dusted = world.account("dusted");
world.sendUsd(employer, dusted, "USDV", 4_775, T - 5 * DAY);
world.sendUsd(lazarus, dusted, "USDV", 2.39, T);
world.sendUsd(dusted, shop, "USDV", 120, T + 2 * DAY);
/** Dusted, then moves most of its balance to an exchange: its own money, not the dust. */
const saver = world.account("saver");
world.sendUsd(employer, saver, "USDV", 4_775, T - 5 * DAY);
world.sendUsd(lazarus, saver, "USDV", 2.39, T);
world.sendUsd(saver, shop, "USDV", 4_000, T + DAY);
/** Wages long ago, then the same USD 2.39 passed straight on: spent onward. */
const forwarder = world.account("forwarder");
world.sendUsd(employer, forwarder, "USDV", 4_775, T - 90 * DAY);
world.sendUsd(lazarus, forwarder, "USDV", 2.39, T);
world.sendUsd(forwarder, shop, "USDV", 2.39, T + HOUR);
/** A dollar sent to the sanctioned address. */
const payer = world.account("payer");
world.sendUsd(employer, payer, "USDV", 4_775, T - 5 * DAY);
world.sendUsd(payer, lazarus, "USDV", 1, T);
/** USD 2.50 withdrawn from a mixer into a user's address. */
const mixed = world.account("mixed");
world.sendUsd(employer, mixed, "USDV", 4_775, T - 5 * DAY);
world.sendUsd(pool, mixed, "USDV", 2.5, T);

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  await writeWorldToStore(svc.database.db, world, CHAIN);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

interface Result {
  address: string;
  analysisId: string;
  riskScore: number;
  riskLevel: string;
  riskReason: string;
  suspiciousActivity: boolean;
  patterns: string[];
  modelVersion: string;
}

async function scan(address: string, maxDepth: number): Promise<Result> {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
    headers: auth(svc.project.keys.developer),
    payload: { addresses: [{ address, chainId: String(CHAIN) }], maxDepth, skipExisting: false },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.results[0] as Result;
}

async function quick(address: string) {
  const res = await svc.app!.inject({
    method: "GET",
    url: `/v1/risk/quick?address=${address}&chainId=${CHAIN}`,
    headers: auth(svc.project.keys.viewer),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe("an ordinary user dusted by a sanctioned address", () => {
  it("is low in scans at every depth, unsolicited in the reason and in the stored exposure", async () => {
    for (const depth of [1, 2, 3, 4]) {
      const r = await scan(dusted.address, depth);
      expect(r, `depth ${depth}`).toMatchObject({
        riskLevel: "low",
        suspiciousActivity: false,
        patterns: [],
        modelVersion: SCORING_MODEL_VERSION,
      });
      expect(r.riskScore).toBeLessThan(40);
      expect(r.riskReason).toContain("unsolicited");
      expect(r.riskReason).toContain("USD 2.39");
      const stored = await getAnalysis(svc.database.db, svc.project.id, r.analysisId);
      const result = stored?.result as StoredResult | undefined;
      const entry = result?.exposure.entries.find((e) => e.category === "sanctioned");
      expect(entry).toMatchObject({ direction: "incoming", hops: 1, usd: 2.39, unsolicited: true });
    }
    expect(SCORING_MODEL_VERSION).toBe("vigia-risk-1.6.0");
  });

  it("shows the dust in the wallet verdict as unsolicited exposure that drives the (low) score", async () => {
    const found = await latestVerdict(svc.database.db, {
      projectId: svc.project.id,
      address: dusted.address.toLowerCase(),
      chainId: CHAIN,
    });
    expect(found?.verdict.level).toBe("low");
    expect(found?.verdict.exposure).toEqual([
      expect.objectContaining({
        category: "sanctioned",
        direction: "incoming",
        usd: 2.39,
        drivesScore: true,
        unsolicited: true,
      }),
    ]);
  });

  it("stays low when the user then spends most of its balance (its own money, not the dust)", async () => {
    for (const depth of [1, 3]) {
      const r = await scan(saver.address, depth);
      expect(r, `depth ${depth}`).toMatchObject({ riskLevel: "low", suspiciousActivity: false });
      expect(r.riskReason).toContain("unsolicited");
    }
    expect((await quick(saver.address)).level).toBe("low");
  });

  it("is low in the quick check", async () => {
    const q = await quick(dusted.address);
    expect(q).toMatchObject({ level: "low", suspiciousActivity: false, patterns: [] });
    expect(q.risk).toBeLessThan(40);
    expect(q.reason).toContain("unsolicited");
  });
});

describe("what keeps its weight", () => {
  it("dust spent onward is critical, in scans and the quick check", async () => {
    for (const depth of [1, 3]) {
      const r = await scan(forwarder.address, depth);
      expect(r.riskLevel).toBe("critical");
      expect(r.riskScore).toBeGreaterThanOrEqual(93);
      expect(r.riskReason).not.toContain("unsolicited");
    }
    expect((await quick(forwarder.address)).level).toBe("critical");
  });

  it("a dollar sent to a sanctioned address is critical", async () => {
    const r = await scan(payer.address, 2);
    expect(r.riskLevel).toBe("critical");
    expect(r.riskReason).toMatch(
      /^Sent USD 1 \(100% of its outgoing funds\) directly to a sanctioned address/,
    );
    expect((await quick(payer.address)).level).toBe("critical");
  });
});

describe("an unsolicited withdrawal from a mixer", () => {
  it("is not the user's mixing: no pattern, not suspicious, named unsolicited", async () => {
    const r = await scan(mixed.address, 2);
    expect(r.patterns).toEqual([]);
    expect(r.suspiciousActivity).toBe(false);
    expect(["minimal", "low"]).toContain(r.riskLevel);
    expect(r.riskReason).toContain("unsolicited");
    const q = await quick(mixed.address);
    expect(q.patterns).toEqual([]);
    expect(q.reason).toContain("unsolicited");
  });
});
