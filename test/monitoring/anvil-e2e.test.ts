// Monitoring end to end on a real anvil chain: the service (workers on: indexer, checker, deliverer) follows the
// chain; a registered address receives a transfer under Colombia's USD 150 (nothing is sent) and one over it; the
// integrator, a real HTTP server on 127.0.0.1, receives exactly one notification, signed (Standard Webhooks,
// verified with the public library), naming the transaction and the law; then, in hmac-canonical with Mexico
// enabled, the 210 UMA aviso at the day's MXN rate, checked by the canonical rule written here. PGlite, or
// PostgreSQL with DATABASE_URL. Last, a transfer from an OFAC-listed address raises an alert on the officer's desk.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Anvil } from "../indexer/support/anvil.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

let anvil: Anvil;
let svc: TestService;
let integrator: http.Server;
const webhooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
/** What the integrator answers for a user profile. */
let profile: object = {
  givenName: "ANA",
  paternalSurname: "LOPEZ",
  address: { country: "CO" },
  colombia: { tipoIdentificacion: "13", numeroIdentificacion: "1020304050" },
};

beforeAll(async () => {
  anvil = await Anvil.start();
  integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.url?.includes("/users/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
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
      ...LOCAL_CHAINS.filter((c) => c.id !== 31337),
      { id: 31337, name: "anvil", currency_symbol: "ETH", rpc_url: anvil.url, confirmations: 0 },
    ],
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  const today = new Date();
  const days = [-1, 0, 1].map((d) => new Date(today.getTime() + d * 86_400_000).toISOString().slice(0, 10));
  await svc.database.db
    .insertInto("prices")
    .values(days.map((day) => ({ chain_id: 31337, token: "native", day, price_usd: "3000" })))
    .execute();
});
afterAll(async () => {
  await svc?.stop();
  await anvil?.stop();
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

describe("monitoring on anvil", () => {
  it("notifies the integrator, signed and once, of the transfer that infringes a law", async () => {
    const [sender, user] = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
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
    // The indexer has caught up with the node before the registration: only what follows counts.
    await until(
      "the indexer's first checkpoint",
      async () =>
        (await svc.database.db.selectFrom("indexer_checkpoints").select("block_number").executeTakeFirst()) ??
        undefined,
    );
    const registered = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address: user, chainId: 31337, foreign_user_id: "alice" },
    });
    expect(registered.statusCode).toBe(201);

    const send = (wei: bigint) =>
      anvil.rpc<string>("eth_sendTransaction", [{ from: sender, to: user, value: `0x${wei.toString(16)}` }]);
    await send(10n ** 16n); // 0.01 ETH: USD 30, under every rule
    const big = await send(10n ** 17n); // 0.1 ETH: USD 300, over Colombia's USD 150

    const webhook = await until("the webhook", async () => webhooks[0]);
    const body = new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>) as {
      type: string;
      data: {
        txHash: string;
        address: { userId: string };
        inflictedLaws: { id: string }[];
        amount: { usd: number };
      };
    };
    expect(body.type).toBe("notification");
    expect(body.data.txHash).toBe(big.toLowerCase());
    expect(body.data.address.userId).toBe("alice");
    expect(body.data.inflictedLaws.map((l) => l.id)).toEqual(["CO-TX-150"]);
    expect(body.data.amount.usd).toBe(300);
    // Both transfers were checked; only one was worth a message.
    await until("both transfers checked", async () => {
      const rows = await svc.database.db.selectFrom("monitored_transfers").select("status").execute();
      return rows.length === 2 && rows.every((r) => r.status === "evaluated") ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(webhooks).toHaveLength(1);
  });

  it("in hmac-canonical, with Mexico enabled: the 210 UMA aviso, verified by the canonical rule", async () => {
    const [sender, user] = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
    const project = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}`,
      headers: auth(svc.project.keys.admin),
      payload: { signing_scheme: "hmac-canonical", jurisdictions: ["MX"] },
    });
    const secret = project.json().data.webhook_secret as string;
    const days = [-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
    await svc.database.db
      .insertInto("fx_rates")
      .values(days.map((day) => ({ day, currency: "MXN", per_usd: "20" })))
      .execute();
    profile = {
      givenName: "ANA",
      paternalSurname: "LOPEZ",
      maternalSurname: "RUIZ",
      birthdate: "1990-01-02",
      nationality: "MX",
      mexico: {
        curp: "LORA900102MDFPZN01",
        actividadEconomica: 8250100,
        documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1" },
      },
    };
    webhooks.length = 0;
    // 0.5 ETH: USD 1,500, MXN 30,000: over 210 UMA (24,635.10 MXN in 2026). The sender is no exchange: no travel rule.
    const tx = (
      await anvil.rpc<string>("eth_sendTransaction", [
        { from: sender, to: user, value: `0x${(5n * 10n ** 17n).toString(16)}` },
      ])
    ).toLowerCase();
    // Messages are delivered each on its own: the notification is the one whose body is one.
    const webhook = await until("the webhook", async () =>
      webhooks.find((w) => JSON.parse(w.body).type === "notification"),
    );
    const timestamp = webhook.headers["x-wavynode-timestamp"] as string;
    const sorted = (v: unknown): unknown =>
      Array.isArray(v) || v === null || typeof v !== "object"
        ? v
        : Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          );
    const body = JSON.parse(webhook.body);
    const expected = crypto
      .createHmac("sha256", secret)
      .update(`POST::/webhook::${JSON.stringify(sorted(body))}::${timestamp}`)
      .digest("base64");
    expect(webhook.headers["x-wavynode-hmac"]).toBe(expected);
    expect(body.data.txHash).toBe(tx);
    expect(body.data.inflictedLaws.map((l: { id: string }) => l.id)).toEqual(["MX-AVISO"]);
  });

  it("reads balances from the node and the wallet's status from the store", async () => {
    const [, user] = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
    const onChain = BigInt(await anvil.rpc<string>("eth_getBalance", [user, "latest"]));
    const get = (url: string) =>
      svc.app!.inject({ method: "GET", url, headers: auth(svc.project.keys.viewer) });
    const [address] = (await get(`/v1/projects/${svc.project.id}/addresses`)).json().data;
    const read = (await get(`/v1/projects/${svc.project.id}/addresses/${address.id}`)).json().data;
    expect(read.balance).toEqual([
      expect.objectContaining({ token: "native", symbol: "ETH", decimals: 18, raw: onChain.toString() }),
    ]);
    const balance = (await get(`/v1/wallets/${user}/balance?chainId=31337`)).json().data;
    expect(balance.assets[0].usd).toBeCloseTo((Number(onChain) / 1e18) * 3000, 0);
    expect(balance.total_balance).toBe(balance.assets[0].usd);
    const status = (await get(`/v1/wallets/${user}/status?chainId=31337`)).json().data;
    expect(status).toMatchObject({ status: "clean", tags: [], lastDapps: [] });
    expect(status.lastTxs).toHaveLength(3);
    // Both in, natively; blocks a second apart or less may share a timestamp, so in either order.
    expect(status.lastTxs.map((t: { value: string }) => t.value).sort()).toEqual([
      (10n ** 16n).toString(),
      (10n ** 17n).toString(),
      (5n * 10n ** 17n).toString(),
    ]);
    expect(status.lastTxs.every((t: { direction: string }) => t.direction === "in")).toBe(true);
    // A chain without a node: no balances to read (503); a bad wallet: 400; an unknown chain: 404.
    expect((await get(`/v1/wallets/${user}/balance?chainId=1`)).statusCode).toBe(503);
    expect((await get("/v1/wallets/0x1234/status?chainId=31337")).statusCode).toBe(400);
    expect((await get(`/v1/wallets/${user}/status?chainId=999999`)).statusCode).toBe(404);
  });

  it("a transfer from an OFAC-listed address raises an illegal alert on the officer's desk", async () => {
    const accounts = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
    const [, user, , listed] = accounts as [string, string, string, string];
    await svc.database.db
      .insertInto("labels")
      .values({
        address: listed,
        chain_id: 0,
        label: "OFAC SDN: anvil test",
        category: "sanctioned",
        source: "test",
      })
      .execute();
    const tx = (
      await anvil.rpc<string>("eth_sendTransaction", [{ from: listed, to: user, value: "0x2386f26fc10000" }])
    ).toLowerCase();
    type Alert = { causeKey: string; level: string; evidence: { transfers: { txHash: string }[] } };
    const alert = await until("the OFAC alert", async () => {
      const res = await svc.app!.inject({
        method: "GET",
        url: `/v1/projects/${svc.project.id}/alerts?cause=law`,
        headers: auth(svc.project.keys.viewer),
      });
      return (res.json().data as Alert[]).find((a) => a.causeKey === "XB-OFAC");
    });
    expect(alert.level).toBe("illegal");
    expect(alert.evidence.transfers.map((t) => t.txHash)).toEqual([tx]);
  });
});
