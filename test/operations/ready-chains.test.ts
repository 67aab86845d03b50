// /readyz and the followed chains: by default a late chain does not make a process unready (its verdicts say so)
// and a chain whose node is not the chain the store holds is named under stoppedChains; with
// VIGIA_READY_MAX_LAG_BLOCKS, a followed chain too far behind its node, silent too long, or stopped makes /readyz
// answer 503 naming it.
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config.ts";
import { type Service, startService } from "../../src/service.ts";
import { Anvil } from "../indexer/support/anvil.ts";
import { until } from "../indexer/support/harness.ts";
import { testDatabase } from "../support/database.ts";
import { TEST_SECRET, writeChainsFile } from "../support/service.ts";

const target = testDatabase();
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});
afterAll(async () => {
  await target.drop();
});

async function start(chains: unknown[], env: Record<string, string>, workers = false): Promise<Service> {
  const config = loadConfig({
    VIGIA_LOG_LEVEL: "silent",
    VIGIA_SECRET: TEST_SECRET,
    PORT: "0",
    VIGIA_CHAINS: writeChainsFile(chains),
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    ...env,
  });
  config.dataDir = target.dataDir;
  const service = await startService(config, {
    http: true,
    workers,
    ...(target.schema ? { schema: target.schema } : {}),
  });
  cleanups.push(() => service.close());
  return service;
}

const probe = async (svc: Service) => {
  const res = await svc.app!.inject({ url: "/readyz" });
  return { status: res.statusCode, body: res.json() };
};

// Chain 1 is followed (an rpc_url; no worker runs here, its checkpoint is written by the test); 137 is not.
const CHAINS = [
  { id: 1, name: "Ethereum", currency_symbol: "ETH", rpc_url: "http://127.0.0.1:9" },
  { id: 137, name: "Polygon PoS", currency_symbol: "POL" },
];

async function checkpoint(svc: Service, chainId: number, block: number, head: number, seenSecondsAgo = 0) {
  const seen = new Date(Date.now() - seenSecondsAgo * 1000).toISOString();
  await sql`
    INSERT INTO indexer_checkpoints (chain_id, block_number, block_hash, head_number, head_seen_at)
    VALUES (${chainId}, ${block}, ${`0x${"ab".repeat(32)}`}, ${head}, ${seen})
    ON CONFLICT (chain_id) DO UPDATE
      SET block_number = EXCLUDED.block_number, head_number = EXCLUDED.head_number, head_seen_at = EXCLUDED.head_seen_at`.execute(
    svc.database.db,
  );
}

describe("/readyz and the followed chains' lag", () => {
  it("off by default: a late chain is a fact, not unreadiness", async () => {
    const svc = await start(CHAINS, {});
    await checkpoint(svc, 1, 1000, 5000);
    const ready = await probe(svc);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "ready", chains: [{ chainId: 1, lagBlocks: 4000 }] });
  });

  it("with VIGIA_READY_MAX_LAG_BLOCKS: 503 naming a followed chain too far behind or silent, 200 within", async () => {
    const svc = await start(CHAINS, {
      VIGIA_READY_MAX_LAG_BLOCKS: "100",
      VIGIA_COVERAGE_MAX_SILENCE_SECONDS: "600",
    });
    await checkpoint(svc, 1, 1000, 1100);
    // Chain 137 has no rpc_url: not followed, its lag does not count.
    await checkpoint(svc, 137, 10, 90_000);
    expect(await probe(svc)).toMatchObject({ status: 200, body: { status: "ready" } });

    await checkpoint(svc, 1, 1000, 1250);
    const late = await probe(svc);
    expect(late.status).toBe(503);
    expect(late.body).toMatchObject({
      error: "unavailable",
      message: "Not ready: chain 1 is 250 blocks behind its node (limit 100)",
    });
    expect((await svc.app!.inject({ url: "/readyz" })).headers["retry-after"]).toBe("5");

    // Its node or indexer gone: the head stops being read, the last lag stands; the silence names it.
    await checkpoint(svc, 1, 1000, 1050, 3600);
    const silent = await probe(svc);
    expect(silent.status).toBe(503);
    expect(silent.body.message).toMatch(
      /^Not ready: chain 1 has not read its node's head for \d+ s \(limit 600\)$/,
    );

    await checkpoint(svc, 1, 1200, 1210);
    expect((await probe(svc)).status).toBe(200);
  });
});

describe("/readyz and a chain stopped for identity", () => {
  it("named under stoppedChains; with VIGIA_READY_MAX_LAG_BLOCKS, 503 naming it and why", async () => {
    const stranger = await Anvil.start({ chainId: 4242 });
    cleanups.push(() => stranger.stop());
    const chains = [
      { id: 31337, name: "Vigía devnet", currency_symbol: "ETH", rpc_url: stranger.url, confirmations: 0 },
    ];
    const reason = "the node at rpc_url serves chain 4242, not chain 31337";

    let svc = await start(chains, {}, true);
    await until("the follower to stop", () => svc.indexers?.status()[0]?.state === "stopped");
    const ready = await probe(svc);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "ready", stoppedChains: [{ chainId: 31337, reason }] });
    // Nothing was indexed from the stranger.
    expect(ready.body.chains.some((c: { chainId: number }) => c.chainId === 31337)).toBe(false);
    await svc.close();

    svc = await start(chains, { VIGIA_READY_MAX_LAG_BLOCKS: "100" }, true);
    await until("the follower to stop", () => svc.indexers?.status()[0]?.state === "stopped");
    const stopped = await probe(svc);
    expect(stopped.status).toBe(503);
    expect(stopped.body).toMatchObject({
      error: "unavailable",
      message: `Not ready: chain 31337 stopped: ${reason}`,
    });
  }, 60_000);
});
