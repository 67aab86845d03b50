// From a recorded transfer to a delivered notification: transfers of monitored addresses, written as the indexer
// writes them, are checked against the law rules of the project's jurisdictions (MX and CO here) with the day's
// price and MXN rate, the counterparty's label and the user's earlier transfers across all of the user's
// addresses; those that infringe nothing send nothing. The laws kept are those of the jurisdiction that governs the
// client (a Colombian client meets Colombia's, a Mexican one Mexico's); every law hit is notified, and a profile
// that can't be read, names no enabled jurisdiction, or lacks what the governing one's files need also sends its own
// `type: error`; each once, however often the checker runs; then delivered, signed, to a real integrator on
// 127.0.0.1. PGlite, or PostgreSQL with DATABASE_URL.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVM_CODEC } from "../../src/chains/address/index.ts";
import { NotificationDeliverer, ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { MonitoredChain, type NativeTransfer } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 31337;
const DAY = "2026-03-10";
const T0 = Date.parse(`${DAY}T10:00:00Z`) / 1000;
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const SANCTIONED = addr(0x5a);
const ETH = 10n ** 18n; // priced at USD 3,000 on the day; MXN 20 per USD

let svc: TestService;
let integrator: http.Server;
let integratorUrl: string;
const webhooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const mexican = {
  givenName: "MARIO",
  paternalSurname: "LOPEZ",
  maternalSurname: "RUIZ",
  birthdate: "1990-01-02",
  nationality: "MX",
  address: { country: "MX", colonia: "Centro", street: "Madero", exteriorNumber: "5", postalCode: "06000" },
  mexico: {
    curp: "LORM900102HDFPZR01",
    actividadEconomica: 6120001,
    documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1" },
  },
};
const profiles: Record<string, { status: number; body?: unknown }> = {
  // a client in Bogotá: Colombia governs
  alice: {
    status: 200,
    body: {
      givenName: "ALICIA",
      paternalSurname: "GOMEZ",
      maternalSurname: "PARRA",
      nationality: "CO",
      address: { country: "CO", city: "Bogotá" },
      colombia: { tipoIdentificacion: "13", numeroIdentificacion: "1020304050" },
    },
  },
  // a client in Mexico City with everything the AVI needs
  mario: { status: 200, body: mexican },
  // the integrator fails
  bob: { status: 500 },
  // no country at all: neither MX nor CO governs
  carol: { status: 200, body: { givenName: "CAROL", paternalSurname: "X", maternalSurname: "Y" } },
  // Mexican, without the identification document the AVI needs
  dora: {
    status: 200,
    body: { ...mexican, mexico: { curp: mexican.mexico.curp, actividadEconomica: 6120001 } },
  },
};

let chain: MonitoredChain;
/** The next block, 12 s after the last, with these transfers. */
const index = (transfers: NativeTransfer[]) =>
  chain.block(new Date((T0 + (chain.head + 1) * 12) * 1000), transfers);

beforeAll(async () => {
  integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
      if (user) {
        const p = profiles[user] ?? { status: 404 };
        res
          .writeHead(p.status, { "content-type": "application/json" })
          .end(p.body ? JSON.stringify(p.body) : "");
        return;
      }
      webhooks.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  chain = new MonitoredChain(svc.database.db, CHAIN);
  const db = svc.database.db;
  await db
    .insertInto("prices")
    .values({ chain_id: CHAIN, token: "native", day: DAY, price_usd: "3000" })
    .execute();
  await db.insertInto("fx_rates").values({ day: "2026-03-09", currency: "MXN", per_usd: "20" }).execute();
  await labelSanctioned(db, SANCTIONED);
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: { integration_url: integratorUrl, jurisdictions: ["MX", "CO"] },
  });
  expect(patch.statusCode).toBe(200);
  await index([]); // the indexer's head before the registrations
  for (const [i, user] of [
    [1, "alice"],
    [2, "alice"],
    [3, "bob"],
    [4, "carol"],
    [5, "mario"],
    [6, "dora"],
  ] as const) {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address: addr(i), chainId: CHAIN, foreign_user_id: user },
    });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(async () => {
  await svc?.stop();
  integrator.closeAllConnections();
  await new Promise((resolve) => integrator.close(resolve));
});

const checker = () =>
  new TransferChecker({
    db: svc.database.db,
    registry: {
      get: (id: number) => (id === CHAIN ? { id, currency_symbol: "ETH", currency_decimals: 18 } : undefined),
      codec: () => EVM_CODEC,
    } as never,
    profiles: new ProfileReader({ ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) }),
    // One user at a time: the outbox then holds the messages in the transfers' order.
    slots: 1,
  });
/** Checks every pending transfer; how many. */
const checkAll = async () => {
  const c = checker();
  let total = 0;
  for (let n = await c.runOnce(); n > 0; n = await c.runOnce()) total += n;
  return total;
};
const outbox = async () =>
  (await svc.database.db.selectFrom("notifications").selectAll().orderBy("id").execute()).map((n) => ({
    type: n.type,
    tx: n.tx_hash,
    body: JSON.parse(n.body),
  }));
const lawIds = (n: { body: { data: { inflictedLaws: { id: string }[] } } }) =>
  n.body.data.inflictedLaws.map((l) => l.id);

describe("checking monitored transfers", () => {
  it("sends nothing for a transfer that infringes nothing", async () => {
    await index([{ from: addr(0x99), to: addr(1), value: ETH / 100n }]); // USD 30
    expect(await checkAll()).toBe(1);
    expect(await outbox()).toEqual([]);
  });

  it("notifies Colombia's USD 150 single transaction, and the monthly USD 450 across the user's two addresses", async () => {
    await index([{ from: addr(1), to: addr(0x98), value: (6n * ETH) / 100n }]); // USD 180, out of alice's first
    await index([{ from: addr(0x97), to: addr(2), value: ETH / 10n }]); // USD 300 into alice's second: 510 this month
    await checkAll();
    const [single, monthly] = await outbox();
    expect(lawIds(single!)).toEqual(["CO-TX-150"]);
    expect(lawIds(monthly!)).toEqual(["CO-TX-150", "CO-TX-450"]);
    expect(monthly!.body.data).toMatchObject({
      projectId: svc.project.id,
      chainId: CHAIN,
      address: { userId: "alice", address: addr(2), description: null },
      amount: { value: 1e17, valueDecimal: "100000000000000000", usd: 300 },
      token: { symbol: "ETH", decimals: 18, address: null },
      direction: "in",
      counterparty: addr(0x97),
    });
    expect(monthly!.body.data.inflictedLaws[1]).toMatchObject({
      name: expect.stringContaining("314/2021"),
      risk: "warn",
      country: "colombia",
      countryCode: "CO",
      source: expect.stringContaining("UIAF"),
    });
  });

  it("a sanctioned counterparty is illegal in every project and a 24-hour aviso in Mexico", async () => {
    await index([{ from: SANCTIONED, to: addr(5), value: ETH / 1000n }]); // USD 3, to mario
    await checkAll();
    expect(lawIds((await outbox()).at(-1)!)).toEqual(["MX-24H-LISTA", "XB-OFAC"]);
  });

  it("Mexico's 210 UMA at the day's MXN rate, each client to its jurisdiction, every hit notified, every profile problem an error", async () => {
    // USD 1,500 at 20 MXN = 30,000 MXN, over 210 UMA of 2026 (24,635.10 MXN); and over Colombia's USD 150.
    await index([
      { from: addr(0x96), to: addr(3), value: ETH / 2n }, // bob: profile answers 500
      { from: addr(0x96), to: addr(4), value: ETH / 2n }, // carol: no country
      { from: addr(0x96), to: addr(5), value: ETH / 2n }, // mario: a complete persona física in Mexico
      { from: addr(0x96), to: addr(6), value: ETH / 2n }, // dora: no identification document
    ]);
    await checkAll();
    const last = (await outbox()).slice(-6);
    expect(last.map((n) => n.type)).toEqual([
      "notification",
      "error",
      "error",
      "notification",
      "notification",
      "error",
    ]);
    const [bobHit, bobError, carolError, marioHit, doraHit, doraError] = last as Required<typeof last>;
    // The profile can't be read: which jurisdiction governs is unknown, so both countries' laws are notified.
    expect(lawIds(bobHit!)).toEqual(["MX-AVISO", "CO-TX-150"]);
    expect(bobError!.body.data).toMatch(
      new RegExp(
        `User bob \\(address ${addr(3)}.*could not be read \\(the user profile request answered 500\\).*México's files of 2026-03`,
      ),
    );
    expect(bobError!.body.data).toContain(bobError!.tx);
    // A client no enabled jurisdiction governs: no country law is kept, and the error says why.
    expect(carolError!.body.data).toMatch(
      /User carol.*no jurisdiction of the project governs the client.*`address\.country`/,
    );
    // A Mexican client: Mexico's laws only.
    expect(lawIds(marioHit!)).toEqual(["MX-AVISO"]);
    expect(lawIds(doraHit!)).toEqual(["MX-AVISO"]);
    expect(doraError!.body.data).toMatch(
      /User dora.*`mexico\.documentoIdentificacion`.*It blocks México's files of 2026-03 \(MX-AVISO\)/,
    );
  });

  it("checks each transfer once, however often the checker runs", async () => {
    const before = await outbox();
    expect(await checker().runOnce()).toBe(0);
    const pending = await svc.database.db.selectFrom("monitored_transfers").select("status").execute();
    expect(pending.every((p) => p.status === "evaluated")).toBe(true);
    expect(await outbox()).toEqual(before);
  });

  it("delivers them signed to the integrator", async () => {
    const deliverer = new NotificationDeliverer({
      ...svc.integrator,
      outbound: new OutboundClient({ allowPrivate: true }),
    });
    while ((await deliverer.runOnce()) > 0);
    const sent = await outbox();
    expect(webhooks).toHaveLength(sent.length);
    const secret = (
      await svc.app!.inject({
        method: "GET",
        url: `/v1/projects/${svc.project.id}`,
        headers: auth(svc.project.keys.admin),
      })
    ).json().data.webhook_secret;
    for (const w of webhooks) new Webhook(secret).verify(w.body, w.headers as Record<string, string>);
    const bodies = webhooks.map((w) => JSON.parse(w.body));
    expect(bodies.filter((b) => b.type === "notification").every((b) => Number.isInteger(b.data.id))).toBe(
      true,
    );
  });
});
