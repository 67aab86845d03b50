// An address registered as the original service's clients register it (`{address, description, foreign_user_id}`,
// no chainId) is watched on every chain the service follows, end to end: two real anvil nodes (chain ids 31337 and
// 31338), the service with its workers (the indexer following both, the checker, the deliverer), and an integrator
// on 127.0.0.1 that receives the signed notifications (Standard Webhooks, verified with the public library). One
// transfer over Colombia's USD 150 on each chain: two notifications, each naming its own chain and transaction,
// under the one record the list shows with both chains; its balance is read from both nodes. The user id is a UUID,
// answered as given everywhere. PGlite, or PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Anvil } from "../indexer/support/anvil.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const A = 31337;
const B = 31338;
const USER = "6b0f3c1e-94a2-4d17-b5e8-0c2f7a9d1e43";
let anvils: Record<number, Anvil>;
let svc: TestService;
let integrator: http.Server;
const webhooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const profiles: string[] = [];

beforeAll(async () => {
  const [a, b] = await Promise.all([Anvil.start(), Anvil.start({ chainId: B })]);
  anvils = { [A]: a, [B]: b };
  integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.url?.includes("/users/")) {
        profiles.push(decodeURIComponent(req.url.slice(req.url.indexOf("/users/") + 7)));
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
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    chains: [
      ...LOCAL_CHAINS.filter((c) => c.id !== A),
      { id: A, name: "anvil", currency_symbol: "ETH", rpc_url: a.url, confirmations: 0 },
      { id: B, name: "anvil two", currency_symbol: "ETH", rpc_url: b.url, confirmations: 0 },
    ],
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  const days = [-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
  await svc.database.db
    .insertInto("prices")
    .values(
      [A, B].flatMap((chain_id) =>
        days.map((day) => ({ chain_id, token: "native", day, price_usd: "3000" })),
      ),
    )
    .execute();
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await Promise.all(Object.values(anvils ?? {}).map((a) => a.stop()));
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

interface Notification {
  type: string;
  data: {
    chainId: number;
    txHash: string;
    address: { id: number; userId: string; address: string; description: string | null };
    inflictedLaws: { id: string }[];
  };
}

describe("an address registered without chainId", () => {
  it("is one record on both chains, and each chain's transfer is notified naming its chain", async () => {
    const [sender, user] = (await anvils[A]!.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
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
    // Both chains indexed before the registration: only what follows counts, on each.
    await until("both chains' first checkpoints", async () => {
      const rows = await svc.database.db.selectFrom("indexer_checkpoints").select("chain_id").execute();
      return rows.length === 2 ? true : undefined;
    });

    // As the original's clients send it.
    const registered = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address: user, description: "Wallet principal del usuario", foreign_user_id: USER },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const record = registered.json().data;
    expect(record).toMatchObject({ address: user, chain_id: null, chains: [A, B], foreign_user_id: USER });
    const list = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(list.json().data).toEqual([
      expect.objectContaining({ id: record.id, chain_id: null, chains: [A, B] }),
    ]);

    // 0.1 ETH on each chain: USD 300, over Colombia's USD 150.
    const sent: Record<number, string> = {};
    for (const chain of [A, B])
      sent[chain] = (
        await anvils[chain]!.rpc<string>("eth_sendTransaction", [
          { from: sender, to: user, value: `0x${(10n ** 17n).toString(16)}` },
        ])
      ).toLowerCase();

    const notifications = await until("a notification of each chain", async () => {
      const found = webhooks
        .map((w) => new Webhook(secret).verify(w.body, w.headers as Record<string, string>) as Notification)
        .filter((n) => n.type === "notification");
      return found.length >= 2 ? found : undefined;
    });
    expect(notifications).toHaveLength(2);
    const byChain = new Map(notifications.map((n) => [n.data.chainId, n.data]));
    expect([...byChain.keys()].sort()).toEqual([A, B]);
    for (const chain of [A, B]) {
      const data = byChain.get(chain)!;
      expect(data.txHash).toBe(sent[chain]);
      expect(data.address).toEqual({
        id: record.id,
        userId: USER,
        address: user,
        description: "Wallet principal del usuario",
      });
      expect(data.inflictedLaws.map((l) => l.id)).toContain("CO-TX-150");
    }
    // Recorded once each, under the one address, with its chain.
    const recorded = await svc.database.db
      .selectFrom("monitored_transfers")
      .select(["address_id", "chain_id", "tx_hash", "status"])
      .orderBy("chain_id")
      .execute();
    expect(recorded).toEqual([
      { address_id: String(record.id), chain_id: A, tx_hash: sent[A], status: "evaluated" },
      { address_id: String(record.id), chain_id: B, tx_hash: sent[B], status: "evaluated" },
    ]);
    // The profile was asked for by the id as given.
    expect(new Set(profiles)).toEqual(new Set([USER]));

    // Its balance, read from both nodes, each asset with its chain.
    const read = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/addresses/${record.id}`,
      headers: auth(svc.project.keys.viewer),
    });
    const balance = read.json().data.balance as { chain_id: number; token: string; raw: string }[];
    expect(balance.map((b) => [b.chain_id, b.token]).sort()).toEqual([
      [A, "native"],
      [B, "native"],
    ]);
    for (const chain of [A, B])
      expect(balance.find((b) => b.chain_id === chain)?.raw).toBe(
        BigInt(await anvils[chain]!.rpc<string>("eth_getBalance", [user, "latest"])).toString(),
      );
  });
});
