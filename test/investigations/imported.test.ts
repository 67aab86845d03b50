// Layer invariants on imported data: ethereum-etl's sample of real mainnet data (test/fixtures/ethereum-etl)
// imported with `import etl`'s verb, then incremental and standard investigations of its busiest addresses through
// HTTP, each layer checked (monotone graph, counts, new = difference, provisional flags, pattern diffs).
// In-memory PGlite, or PostgreSQL with DATABASE_URL.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletedLayer } from "../../src/analysis/index.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { fixture } from "../support/fixtures.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { expectLayerInvariants } from "./layers.ts";

const SAMPLES = fixture("ethereum-etl");
let svc: TestService;
let busiest: string[];

beforeAll(async () => {
  svc = await startTestService({
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  const summary = await importEtl(svc.database, { chainId: 1, dir: SAMPLES });
  expect(summary.transfers.written).toBeGreaterThan(100);
  const { rows } = await sql<{ address: string }>`
    SELECT address FROM (
      SELECT from_address AS address FROM transfers WHERE chain_id = 1
      UNION ALL SELECT to_address FROM transfers WHERE chain_id = 1
    ) t GROUP BY address ORDER BY count(*) DESC, address LIMIT 3`.execute(svc.database.db);
  busiest = rows.map((r) => r.address);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const get = (url: string) => svc.app!.inject({ method: "GET", url, headers: auth(svc.project.keys.viewer) });
const create = (payload: object) =>
  svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/investigations`,
    headers: auth(svc.project.keys.developer),
    payload,
  });

async function layers(analysisId: string, maxDepth: number): Promise<CompletedLayer[]> {
  const out: CompletedLayer[] = [];
  for (let i = 0; i < maxDepth; i++)
    out.push((await get(`/v1/analysis/${analysisId}/layers/${i}`)).json().data);
  return out;
}

describe("investigations of imported ethereum-etl data", () => {
  it("incremental: every layer holds the invariants, and the graph grows past the root", async () => {
    const root = busiest[0]!;
    const created = (await create({ name: "busiest", wallet: root, incremental: true, maxDepth: 3 })).json()
      .data;
    const deadline = Date.now() + 60_000;
    while ((await get(`/v1/analysis/${created.analysis_id}/progress`)).json().data.status !== "completed") {
      if (Date.now() > deadline) throw new Error("analysis did not complete");
      await new Promise((r) => setTimeout(r, 200));
    }
    const all = await layers(created.analysis_id, 3);
    expectLayerInvariants(all, 3, root);
    expect(all[0]!.layerMetadata.newNodeCount).toBeGreaterThan(1);
    expect(all[0]!.newEdges.length).toBeGreaterThan(0);
    // amounts as the sample has them: raw wei strings
    for (const edge of all[2]!.cumulativeGraph.edges) expect(edge.value).toMatch(/^\d+$/);
  }, 90_000);

  it("standard: answers with the final layer's graph, for each of the busiest addresses", async () => {
    for (const root of busiest.slice(1)) {
      const res = await create({ name: root, wallet: root, maxDepth: 2 });
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      expect(data.status).toBe("completed");
      const all = await layers(data.analysis_id, 2);
      expectLayerInvariants(all, 2, root);
      expect(data.graph).toEqual(all[1]!.cumulativeGraph);
    }
  }, 90_000);
});
