// `vigia serve` with no chains configured: the service starts anvil (on another port when the preferred one is
// taken, and tells the indexer), plays the demo scenario, writes its labels and prices, and its own indexer
// follows the chain, so the store ends up holding exactly the planned transfers; the Tron devnet beside it likewise
// (its USDT transfers, its labels under their own source, Tether's freeze read as the issuer's label). Stopping the
// service stops both nodes.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetScenario } from "../../src/devnet/devnet.ts";
import { TRON_DEVNET_CHAIN_ID, tronDevnetScenario } from "../../src/devnet/tron-devnet.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { type Service, startService } from "../../src/service.ts";
import {
  DEVNET_LABEL_SOURCE,
  TRON_DEVNET_LABEL_SOURCE,
  TRON_USDT_CONTRACT,
  tokenAddress,
  tronDevnetWorld,
} from "../../src/worlds/index.ts";
import { testDatabase } from "../support/database.ts";

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("vigia serve without VIGIA_CHAINS", () => {
  const target = testDatabase();
  let service: Service;
  // Something else holds the preferred port, as another node on 8545 would.
  const squatter = net.createServer();
  let taken: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    taken = (squatter.address() as net.AddressInfo).port;
    const config = loadConfig({
      VIGIA_SECRET: "vW3q8Jr2xKp9LmN4tZb7Yc1Hd6Fg0Se5Ua8Qi2Oj3Rk",
      VIGIA_LOG_LEVEL: "silent",
      PORT: "0",
      // The built-in chains' Blockscout instances are on the internet: no test asks them for histories.
      VIGIA_PUBLIC_EXPLORERS: "false",
      ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    });
    config.dataDir = target.dataDir;
    service = await startService(config, {
      http: true,
      workers: true,
      devnet: { port: taken },
      ...(target.schema ? { schema: target.schema } : {}),
    });
  });

  afterAll(async () => {
    await service?.close();
    await target.drop();
    await new Promise((resolve) => squatter.close(resolve));
  });

  it("runs the devnet on a free port and indexes exactly the planned transfers", async () => {
    const devnet = service.devnet!;
    expect(devnet).toBeDefined();
    expect(new URL(devnet.rpcUrl).port).not.toBe(String(taken));
    const ready = await devnet.ready;
    expect(ready?.play?.outcome).toBe("played");

    const { world, plan } = devnetScenario();
    const db = service.database.db;
    await until("the devnet to be indexed", async () => {
      const row = await db
        .selectFrom("indexer_checkpoints")
        .select("block_number")
        .where("chain_id", "=", 31337)
        .executeTakeFirst();
      return row !== undefined && Number(row.block_number) >= plan.blocks.length;
    });
    const stored = await db
      .selectFrom("transfers")
      .select(["from_address", "to_address", "token", "value", "block_time"])
      .where("chain_id", "=", 31337)
      .orderBy("block_number")
      .orderBy("log_index")
      .execute();
    expect(
      stored.map((t) => ({
        from: t.from_address,
        to: t.to_address,
        token: t.token,
        amount: BigInt(t.value),
        at: new Date(t.block_time).getTime() / 1000,
      })),
    ).toEqual(
      world.timeline().map((t) => ({
        from: t.from,
        to: t.to,
        token: tokenAddress(t.token),
        amount: t.amount,
        at: t.at,
      })),
    );
    const labels = await db
      .selectFrom("labels")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("source", "=", DEVNET_LABEL_SOURCE)
      .executeTakeFirstOrThrow();
    expect(Number(labels.n)).toBe(world.labelled().length);
    const prices = await db
      .selectFrom("prices")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("chain_id", "=", 31337)
      .executeTakeFirstOrThrow();
    expect(Number(prices.n)).toBe(ready!.data.prices.rows);
  });

  it("runs the Tron devnet beside it, and indexes its USDT transfers", async () => {
    const tron = service.devnet!.tron;
    expect(tron).toBeDefined();
    const ready = await tron!.ready;
    expect(ready?.play?.outcome).toBe("played");
    const { world, plan } = tronDevnetScenario();
    const db = service.database.db;
    await until("the Tron devnet to be indexed", async () => {
      const row = await db
        .selectFrom("indexer_checkpoints")
        .select("block_number")
        .where("chain_id", "=", TRON_DEVNET_CHAIN_ID)
        .executeTakeFirst();
      return row !== undefined && Number(row.block_number) >= plan.blocks.length;
    });
    const stored = await db
      .selectFrom("transfers")
      .select(["from_address", "to_address", "token", "value", "block_time"])
      .where("chain_id", "=", TRON_DEVNET_CHAIN_ID)
      .orderBy("block_number")
      .orderBy("log_index")
      .execute();
    expect(
      stored.map((t) => ({
        from: t.from_address,
        to: t.to_address,
        token: t.token,
        amount: BigInt(t.value),
        at: new Date(t.block_time).getTime() / 1000,
      })),
    ).toEqual(
      world
        .timeline()
        .map((t) => ({ from: t.from, to: t.to, token: TRON_USDT_CONTRACT, amount: t.amount, at: t.at })),
    );
    const labels = await db
      .selectFrom("labels")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("source", "=", TRON_DEVNET_LABEL_SOURCE)
      .executeTakeFirstOrThrow();
    expect(Number(labels.n)).toBe(world.labelled().length);
    // Tether's freeze on the chain is read by the indexer as the issuer's label of the frozen address.
    const [frozen] = tronDevnetWorld().freezes;
    const freezeLabels = await db
      .selectFrom("labels")
      .select(["address", "source"])
      .where("chain_id", "=", TRON_DEVNET_CHAIN_ID)
      .where("source", "like", "issuer-freeze:%")
      .execute();
    expect(freezeLabels).toEqual([
      { address: frozen!.address, source: `issuer-freeze:${TRON_USDT_CONTRACT}` },
    ]);
  });

  it("stops anvil when the service stops", async () => {
    const urls = [service.devnet!.rpcUrl, service.devnet!.tron!.rpcUrl];
    await service.close();
    for (const url of urls) {
      await expect(
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        }),
      ).rejects.toThrow();
    }
  });
});
