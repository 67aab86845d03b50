// The structuring detector measures transfers against the reporting thresholds of the jurisdictions the project
// enables, converted at the day's rate: three payments of USD 1,250 in a week are 97 % of Mexico's 210-UMA aviso
// threshold at 18.5 MXN per USD (USD 1,284.29), and 125 % of the lowest threshold every project has (USD 1,000).
// Through HTTP: scan-risk, the quick check and a risk job, for a project with MX enabled and one without.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTransfers } from "../../src/chains/store/transfers.ts";
import { updateProject } from "../../src/projects/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 1;
const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const SMURF = a(0x5e);
const DAY = 86_400;
const START = Date.UTC(2025, 7, 4) / 1000; // 2025-08-04, after the 2025 reform (210 UMA)
const ETH = 10n ** 18n;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  const db = svc.database.db;
  // ETH at USD 2,000 through August 2025; MXN at 18.5 per USD (published on the 1st, used for the days after).
  await sql`INSERT INTO prices (chain_id, token, day, price_usd)
    SELECT ${CHAIN}, 'native', d::date, 2000 FROM generate_series('2025-08-01'::date, '2025-08-31'::date, '1 day') d`.execute(
    db,
  );
  await sql`INSERT INTO fx_rates (day, currency, per_usd) VALUES ('2025-08-01', 'MXN', 18.5)`.execute(db);
  // Funded once, then three payments of 0.625 ETH (USD 1,250) to three payees within four days.
  const rows = [
    { from: a(0xf0), to: SMURF, value: 3n * ETH, at: START - DAY },
    { from: SMURF, to: a(0x71), value: (ETH * 5n) / 8n, at: START },
    { from: SMURF, to: a(0x72), value: (ETH * 5n) / 8n, at: START + 2 * DAY },
    { from: SMURF, to: a(0x73), value: (ETH * 5n) / 8n, at: START + 4 * DAY },
  ];
  await insertTransfers(
    db,
    rows.map((r, i) => ({
      chainId: CHAIN,
      txHash: `0x${(i + 1).toString(16).padStart(64, "0")}`,
      logIndex: -1,
      blockNumber: BigInt(100 + i),
      blockTime: new Date(r.at * 1000),
      from: r.from,
      to: r.to,
      token: "native",
      value: r.value,
    })),
  );
  await updateProject(svc.projects, svc.project.id, { jurisdictions: ["MX"] }, { kind: "cli" });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const scanAs = async (projectId: number, key: string) => {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${projectId}/addresses/scan-risk`,
    headers: auth(key),
    payload: { addresses: [{ address: SMURF, chainId: String(CHAIN) }], maxDepth: 2 },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.results[0];
};

describe("jurisdictions' reporting thresholds", () => {
  it("scan-risk: structuring against MX's threshold where MX is enabled, nothing where it is not", async () => {
    const mx = await scanAs(svc.project.id, svc.project.keys.admin);
    expect(mx.patterns).toContain("structuring");
    expect(mx.riskReason).toContain("USD 1,284 threshold (MX LFPIORPI Art. 17 XVI aviso)");
    const other = await scanAs(svc.other.id, svc.other.keys.admin);
    expect(other.patterns).not.toContain("structuring");
  });

  it("the quick check uses them too", async () => {
    const quick = async (key: string) =>
      (
        await svc.app!.inject({
          method: "GET",
          url: `/v1/risk/quick?address=${SMURF}&chainId=${CHAIN}`,
          headers: auth(key),
        })
      )
        .json()
        .data.patterns.map((p: { name: string }) => p.name);
    expect(await quick(svc.project.keys.viewer)).toContain("structuring");
    expect(await quick(svc.other.keys.admin)).not.toContain("structuring");
  });
});
