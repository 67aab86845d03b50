// /readyz answers 503, naming what is unreachable, while the database (PostgreSQL behind a proxy the test cuts) or
// the report files' folder cannot be reached, and 200 again once they can; /healthz stays 200 throughout.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config.ts";
import { type Service, startService } from "../../src/service.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { LOCAL_CHAINS, TEST_SECRET, writeChainsFile } from "../support/service.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

const target = testDatabase();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await target.drop();
});

async function start(env: Record<string, string>): Promise<Service> {
  const config = loadConfig({
    VIGIA_LOG_LEVEL: "silent",
    VIGIA_SECRET: TEST_SECRET,
    PORT: "0",
    VIGIA_CHAINS: writeChainsFile(LOCAL_CHAINS),
    ...env,
  });
  const service = await startService(config, {
    http: true,
    workers: false,
    ...(target.schema ? { schema: target.schema } : {}),
  });
  cleanups.push(() => service.close());
  return service;
}

const probe = async (svc: Service, url: string) => {
  const res = await svc.app!.inject({ url });
  return { status: res.statusCode, body: res.json() };
};

describe.skipIf(!onPostgres)("readiness on PostgreSQL", () => {
  it("fails while the database is unreachable, and recovers with it", async () => {
    const url = new URL(target.databaseUrl as string);
    const proxy: TcpProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    cleanups.push(() => proxy.close());
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    const svc = await start({ DATABASE_URL: url.toString() });
    // Ready, with each followed chain's lag (none is followed here) and each list's age (a detail: stale lists
    // do not make the API unready).
    const ready = await probe(svc, "/readyz");
    expect(ready).toMatchObject({ status: 200, body: { status: "ready", chains: [] } });
    expect(Array.isArray(ready.body.lists)).toBe(true);

    await proxy.cut();
    const down = await probe(svc, "/readyz");
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      success: false,
      error: "unavailable",
      message: "Not ready: database unreachable",
    });
    expect((await svc.app!.inject({ url: "/readyz" })).headers["retry-after"]).toBe("5");
    expect((await probe(svc, "/healthz")).status).toBe(200);

    await proxy.restore();
    const deadline = Date.now() + 10_000;
    let again = await probe(svc, "/readyz");
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      again = await probe(svc, "/readyz");
    }
    expect(again.status).toBe(200);
  }, 60_000);
});

describe.skipIf(onPostgres)("readiness on the embedded database", () => {
  it("fails while the report files' folder cannot be written, and recovers with it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-ready-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const svc = await start({ VIGIA_DATA_DIR: dataDir });
    expect((await probe(svc, "/readyz")).status).toBe(200);

    // A file where the folder should be: the store cannot make or use it (whoever runs the test, root too).
    const files = path.join(dataDir, "files");
    fs.rmSync(files, { recursive: true, force: true });
    fs.writeFileSync(files, "not a folder");
    const down = await probe(svc, "/readyz");
    expect(down.status).toBe(503);
    expect(down.body.message).toBe("Not ready: file store unreachable");

    fs.rmSync(files);
    expect((await probe(svc, "/readyz")).status).toBe(200);
  }, 60_000);
});

describe("readiness names only the chains this deployment follows", () => {
  it("a store's checkpoints of chains nothing here follows (the devnet's, after a move) are not shown", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-ready-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    // Chain 1 has a node to follow; the devnet's chain (31337) and chain 137 have none here, though the store
    // holds their checkpoints (as a store exported from the embedded setup, where the devnet ran, does).
    const chains = [
      { id: 1, name: "Ethereum", currency_symbol: "ETH", rpc_url: "http://127.0.0.1:9" },
      { id: 137, name: "Polygon PoS", currency_symbol: "POL" },
      { id: 31337, name: "Vigía devnet", currency_symbol: "ETH" },
    ];
    const svc = await start({
      VIGIA_DATA_DIR: dataDir,
      VIGIA_CHAINS: writeChainsFile(chains),
      VIGIA_METRICS_ALLOW: "127.0.0.1",
    });
    const seen = new Date(Date.now() - 5_000);
    await svc.database.db
      .insertInto("indexer_checkpoints")
      .values(
        [1, 137, 31337].map((chainId) => ({
          chain_id: chainId,
          block_number: "100",
          block_hash: `0x${"ab".repeat(32)}`,
          updated_at: seen,
          head_number: "100",
          head_seen_at: seen,
        })),
      )
      .execute();
    const ready = await probe(svc, "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.chains.map((c: { chainId: number }) => c.chainId)).toEqual([1]);
    expect(ready.body.chains[0]).toMatchObject({ chainId: 1, block: "100", head: "100", lagBlocks: 0 });
    // The metrics say the same.
    const metrics = await svc.app!.inject({ url: "/metrics", remoteAddress: "127.0.0.1" });
    const series = (name: string) =>
      metrics.body
        .split("\n")
        .filter((line) => line.startsWith(`${name}{`))
        .map((line) => line.match(/chain="(\d+)"/)?.[1]);
    expect(series("vigia_chain_lag_blocks")).toEqual(["1"]);
    expect(series("vigia_chain_silent_seconds")).toEqual(["1"]);
  }, 60_000);
});
