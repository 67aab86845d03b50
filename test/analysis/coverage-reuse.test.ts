// A chain's holding (its indexer's checkpoint and head, the first and last times of its data) is read once per chain
// and VIGIA_COVERAGE_TTL_MS by each process, not once per verdict (src/analysis/coverage.ts): quick checks run
// hundreds of times a second and the holding changes with each indexed block only. A change reaches the verdicts
// within that time. PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, expect, it } from "vitest";
import { holdTransfer } from "../support/ledger.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const INDEXED = 7301;
// Long enough that three quick checks fit inside it on a loaded two-core CI machine (one took 2.6 s there).
const TTL_MS = 5000;
const clean = `0x${"c1".padStart(40, "0")}`;
const peer = `0x${"c2".padStart(40, "0")}`;
const AT = new Date("2024-03-01T12:00:00Z");

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    chains: [...LOCAL_CHAINS, { id: INDEXED, name: "Indexed", currency_symbol: "ETH" }],
    env: { VIGIA_COVERAGE_TTL_MS: String(TTL_MS) },
  });
  await holdTransfer(svc.database.db, { chainId: INDEXED, from: clean, to: peer, at: AT, block: 20n });
});
afterAll(async () => {
  await svc?.stop();
});

/** The indexer's checkpoint of INDEXED at block 20, its head last read `seenSecondsAgo` seconds ago. */
async function indexerSeen(seenSecondsAgo: number) {
  const seen = new Date(Date.now() - seenSecondsAgo * 1000);
  const row = {
    block_number: "20",
    block_hash: "0x14",
    updated_at: seen,
    head_number: "20",
    head_seen_at: seen,
  };
  await svc.database.db
    .insertInto("indexer_checkpoints")
    .values({ chain_id: INDEXED, ...row })
    .onConflict((oc) => oc.column("chain_id").doUpdateSet(row))
    .execute();
}

const quick = async () =>
  (
    await svc.app!.inject({
      method: "GET",
      url: `/v1/risk/quick?address=${clean}&chainId=${INDEXED}`,
      headers: auth(svc.project.keys.viewer),
    })
  ).json().data;

it("reuses a chain's holding for VIGIA_COVERAGE_TTL_MS, then reads the change", async () => {
  await indexerSeen(0);
  const readAt = Date.now();
  const first = await quick();
  expect(first.coverage).toMatchObject({ source: "index", current: true, block: "20" });
  expect(first.level).toBe("minimal");

  // The indexer falls silent past VIGIA_COVERAGE_MAX_SILENCE_SECONDS (300): within the time to live the verdicts
  // still rest on the holding read a moment ago, every one of them alike.
  await indexerSeen(400);
  const within = await Promise.all([quick(), quick(), quick()]);
  // Those three verdicts came within the time to live of the first read (by far, on any machine).
  expect(Date.now() - readAt).toBeLessThan(TTL_MS);
  for (const q of within) expect(q.coverage).toMatchObject({ source: "index", current: true });

  await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
  const after = await quick();
  expect(after).toMatchObject({ level: null, errorCode: "no_data" });
  expect(after.coverage).toMatchObject({ source: "index", current: false });
  expect(after.coverage.note).toContain("has not reported since");
});
