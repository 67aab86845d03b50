// Monitoring a Bitcoin address end to end: the service (workers on) follows a regtest chain from a Bitcoin Core
// node (the stand-in of test/indexer/support/bitcoin-core.ts, answering Core's RPC; no node can run here); a client's
// registered bech32 address is paid 0.0001 BTC (USD 10: nothing to say) and then 0.01 BTC (USD 1,000, over
// Colombia's USD 150); the integrator, a real HTTP server on 127.0.0.1, receives exactly one notification, signed
// (Standard Webhooks, verified with the public library), naming the transaction, the law and the amount in BTC.
// A Bitcoin chain that no node follows still refuses registrations, and a balance is not asked of Core (it keeps none
// per address); both say why. PGlite, or PostgreSQL with
// DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { bech32 } from "@scure/base";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  coinbase,
  coreBlock,
  GENESIS,
  hashOf,
  payment,
  type StandInCore,
  startStandInCore,
} from "../indexer/support/bitcoin-core.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const REGTEST = 1_181_622_790;
const IMPORTED = 177_005_167;
const bcrt = (n: number) => bech32.encode("bcrt", [0, ...bech32.toWords(new Uint8Array(20).fill(n))]);
const [miner, sender, client] = [1, 2, 3].map(bcrt) as [string, string, string];

let node: StandInCore;
let svc: TestService;
let integrator: http.Server;
const webhooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  node = await startStandInCore({ user: "vigia", password: "p", chain: "regtest" });
  const now = Math.floor(Date.now() / 1000);
  node.blocks.set(0, { hash: GENESIS.regtest, height: 0, time: 1_296_688_602, tx: [] });
  node.blocks.set(1, coreBlock("m1", 1, GENESIS.regtest, [coinbase("m1", miner)], now - 60));
  integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.url?.includes("/users/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            givenName: "ANA",
            paternalSurname: "LOPEZ",
            address: { country: "CO" },
            colombia: { tipoIdentificacion: "13", numeroIdentificacion: "1020304050" },
          }),
        );
        return;
      }
      webhooks.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true", VIGIA_LOG_LEVEL: "silent" },
    chains: [
      ...LOCAL_CHAINS.filter((c) => c.id !== 31337),
      {
        id: REGTEST,
        name: "Bitcoin regtest",
        kind: "bitcoin",
        bitcoin_network: "regtest",
        currency_symbol: "BTC",
        rpc_url: node.url,
        confirmations: 0,
        start_block: 1,
      },
      { id: IMPORTED, name: "Bitcoin", kind: "bitcoin", currency_symbol: "BTC" },
    ],
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  const days = [-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
  await svc.database.db
    .insertInto("prices")
    .values(days.map((day) => ({ chain_id: REGTEST, token: "native", day, price_usd: "100000" })))
    .execute();
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await node?.close();
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("monitoring a Bitcoin address", () => {
  it("notifies the integrator, signed and once, of the payment that infringes a law", async () => {
    const project = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}`,
      headers: auth(svc.project.keys.admin),
      payload: {
        integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
        jurisdictions: ["CO"],
      },
    });
    const secret = project.json().data.webhook_secret as string;
    await until(
      "the follower's first checkpoint",
      async () =>
        (await svc.database.db
          .selectFrom("indexer_checkpoints")
          .select("block_number")
          .where("chain_id", "=", REGTEST)
          .executeTakeFirst()) ?? undefined,
    );
    // Written in capitals, as a wallet may show it: stored as bech32's lower case.
    const registered = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address: client.toUpperCase(), chainId: REGTEST, foreign_user_id: "alice" },
    });
    expect(registered.statusCode).toBe(201);

    const now = Math.floor(Date.now() / 1000);
    const small = payment(
      "small",
      [[sender, 0.0002]],
      [
        [client, 0.0001],
        [sender, 0.00009],
      ],
    );
    const big = payment(
      "big",
      [[sender, 0.02]],
      [
        [client, 0.01],
        [sender, 0.0099],
      ],
    );
    node.blocks.set(2, coreBlock("m2", 2, node.blocks.get(1)?.hash, [coinbase("m2", miner), small], now));
    node.blocks.set(3, coreBlock("m3", 3, node.blocks.get(2)?.hash, [coinbase("m3", miner), big], now));

    const webhook = await until("the webhook", async () => webhooks[0]);
    const body = new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>) as {
      type: string;
      data: {
        txHash: string;
        address: { userId: string; address: string };
        inflictedLaws: { id: string }[];
        amount: { usd: number };
      };
    };
    expect(body.type).toBe("notification");
    expect(body.data.txHash).toBe(hashOf("big"));
    expect(body.data.address).toMatchObject({ userId: "alice", address: client });
    expect(body.data.inflictedLaws.map((l) => l.id)).toEqual(["CO-TX-150"]);
    // 0.02 BTC in, 0.01 of it (less its share of the fee) paid to the client: USD 999.99 at USD 100,000.
    expect(body.data.amount.usd).toBeCloseTo(999.99, 1);
    await until("both payments checked", async () => {
      const rows = await svc.database.db.selectFrom("monitored_transfers").select("status").execute();
      return rows.length === 2 && rows.every((r) => r.status === "evaluated") ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(webhooks).toHaveLength(1);
  });

  it("does not ask the node for a balance it does not keep, and says so", async () => {
    const res = await svc.app!.inject({
      url: `/v1/wallets/${client}/balance?chainId=${REGTEST}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("keeps no balance per address");
  });

  it("refuses to register an address on a Bitcoin chain that no node follows, saying why", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: {
        address: bech32.encode("bc", [0, ...bech32.toWords(new Uint8Array(20).fill(3))]),
        chainId: IMPORTED,
        foreign_user_id: "bob",
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("no node follows");
  });
});
