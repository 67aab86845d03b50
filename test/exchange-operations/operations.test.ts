// The exchange's own operations on the real service (docs/api.md "Exchange operations"): POST and GET
// /projects/{id}/operations (idempotency by operationId, a conflict naming the difference, refusals naming the item
// and field with nothing written, the rails' identifiers checked), then the operation rules judging them through
// the monitor's step with the service's real quick analysis and a real integrator on 127.0.0.1 serving profiles:
// twelve SPEI payers and a USDT withdrawal to a sanctioned address raise one fan-in alert and one withdrawal-to-risk
// alert naming the deposits; a payroll from one employer and the client's own account raise none. PGlite, or
// PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelSanctioned } from "../support/ledger.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { judgeAllOperations, validClabe } from "../support/operations.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const SANCTIONED = "0x00000000000000000000000000000000000bad01";
const CLEAN = "0x00000000000000000000000000000000000c1ea9";
/** The local chain, indexed: the quick check sees the destinations' histories. */
const CHAIN = 31337;

let svc: TestService;
let integrator: http.Server;
const profiles: Record<string, unknown> = {
  ana: {
    givenName: "Ana",
    paternalSurname: "Pérez",
    maternalSurname: "García",
    mexico: { rfc: "PEGA800101AB1" },
  },
  luis: {
    givenName: "Luis",
    paternalSurname: "Soto",
    mexico: { clabeInterbancaria: validClabe(1) },
    // His declared source of funds: his employer's payroll, paid from its account.
    knownPayers: [{ name: "Grupo Industrial SA de CV", account: validClabe(500), relation: "employer" }],
  },
};

beforeAll(async () => {
  integrator = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
      const body = user ? profiles[decodeURIComponent(user)] : undefined;
      if (user && body) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      else res.writeHead(user ? 404 : 200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  // The client picture sums the last 90 days: the service's day is fixed after the operations of this file.
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    service: { clock: () => Date.parse("2026-11-30T12:00:00Z") },
  });
  const db = svc.database.db;
  for (const day of ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"])
    await db.insertInto("fx_rates").values({ day, currency: "MXN", per_usd: "20" }).execute();
  await db
    .insertInto("tokens")
    .values({
      chain_id: 1,
      address: "0xdac17f958d2ee523a2206206994597c13d831ec7",
      symbol: "USDT",
      name: "Tether",
      decimals: 6,
      pegged_usd: "1",
    })
    .onConflict((c) => c.doNothing())
    .execute();
  await new MonitoredChain(db, CHAIN).block(new Date("2026-11-01T12:00:00Z"), [
    { from: SANCTIONED, to: "0x0000000000000000000000000000000000000a01", value: 10n ** 18n },
    { from: "0x0000000000000000000000000000000000000a02", to: CLEAN, value: 10n ** 18n },
  ]);
  await labelSanctioned(db, SANCTIONED);
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
      jurisdictions: ["MX"],
    },
  });
  expect(patch.statusCode, patch.body).toBe(200);
});
afterAll(async () => {
  await svc?.stop();
  integrator.closeAllConnections();
  await new Promise((resolve) => integrator.close(resolve));
});

const post = (operations: unknown[], key = svc.project.keys.developer) =>
  svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/operations`,
    headers: auth(key),
    payload: { operations },
  });
const list = (userId: string) =>
  svc.app!.inject({
    url: `/v1/projects/${svc.project.id}/operations?userId=${encodeURIComponent(userId)}`,
    headers: auth(svc.project.keys.viewer),
  });

const spei = (id: string, userId: string, at: string, amount: string, payer: string, serial: number) => ({
  operationId: id,
  userId,
  kind: "fiat_deposit",
  at,
  currency: "MXN",
  amount,
  rail: "spei",
  counterparty: { name: payer, bank: "BBVA México", account: validClabe(serial) },
  reference: `RASTREO${id.replace(/[^A-Za-z0-9]/g, "")}`.slice(0, 30),
});
const withdrawal = (id: string, userId: string, at: string, amount: string, address: string) => ({
  operationId: id,
  userId,
  kind: "crypto_withdrawal",
  at,
  asset: "USDT",
  amount,
  chainId: CHAIN,
  address,
  txHash: `0x${"ab".repeat(32)}`,
});

const judgeAll = () => judgeAllOperations(svc, new Map([["ETH", [CHAIN]]]));
async function alertsOf(userId: string, lang = "en") {
  const res = await svc.app!.inject({
    url: `/v1/projects/${svc.project.id}/alerts?client=${encodeURIComponent(userId)}`,
    headers: { ...auth(svc.project.keys.officer), "accept-language": lang },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    id: string;
    cause: string;
    level: string;
    reason: string;
    reasonText: string;
    subject: { chainId: number; address: string };
    evidence: { operations: { operationId: string; counterparty?: string }[] };
  }[];
}

describe("operations in", () => {
  const buy = {
    operationId: "op-buy-1",
    userId: "bea",
    kind: "buy",
    at: "2026-11-03T10:00:00-06:00",
    asset: "usdt",
    amount: "500",
    currency: "MXN",
    fiatAmount: "10000",
    price: "20",
  };

  it("takes a batch once: the same operations again change nothing", async () => {
    const first = await post([
      buy,
      spei("op-dep-1", "bea", "2026-11-03T09:00:00-06:00", "10000", "Bea Ruiz", 1),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ received: 2, created: 2, unchanged: 0 });
    const again = await post([buy]);
    expect(again.json().data).toEqual({ received: 1, created: 0, unchanged: 1 });
    const held = await list("bea");
    expect(held.statusCode).toBe(200);
    const ops = held.json().data.operations;
    expect(ops.map((o: { operation: { operationId: string } }) => o.operation.operationId)).toEqual([
      "op-dep-1",
      "op-buy-1",
    ]);
    // Kept in one form: the instant in UTC, the symbol in capitals.
    expect(ops[1].operation).toMatchObject({ at: "2026-11-03T16:00:00.000Z", asset: "USDT" });
  });

  it("refuses another content under a held id with 409 naming the field, and writes nothing of that request", async () => {
    const res = await post([
      spei("op-dep-new", "bea", "2026-11-03T11:00:00-06:00", "500", "Bea Ruiz", 1),
      { ...buy, fiatAmount: "10001" },
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json().details).toEqual([
      expect.objectContaining({
        path: "/operations/1/fiatAmount",
        message: expect.stringMatching(/"10000".*"10001"/),
      }),
    ]);
    const ids = (await list("bea"))
      .json()
      .data.operations.map((o: { operation: { operationId: string } }) => o.operation.operationId);
    expect(ids).not.toContain("op-dep-new");
  });

  it("refuses malformed items with their index and field, the rails' identifiers checked, and writes none", async () => {
    const badClabe = spei("op-x1", "bea", "2026-11-03T12:00:00-06:00", "100", "X", 1);
    badClabe.counterparty.account = `${badClabe.counterparty.account.slice(0, 17)}${(Number(badClabe.counterparty.account[17]) + 1) % 10}`;
    const res = await post([
      spei("op-ok", "bea", "2026-11-03T12:00:00-06:00", "100", "X", 2),
      badClabe,
      {
        operationId: "op-x2",
        userId: "bea",
        kind: "fiat_deposit",
        at: "2026-11-03T12:00:00-03:00",
        currency: "BRL",
        amount: "100",
        rail: "pix",
        counterparty: { name: "João", taxId: "529.982.247-24", pixKey: "not a key" },
        reference: "E12345678202611031200abcdefghijk",
      },
      { ...buy, operationId: "op-x3", amount: "1,5" },
      withdrawal("op-x4", "bea", "2026-11-03T12:00:00-06:00", "10", "0x123"),
      {
        operationId: "op-x5",
        userId: "bea",
        kind: "fee",
        at: "2026-11-03T12:00:00-06:00",
        amount: "5",
        of: "op-buy-1",
      },
    ]);
    expect(res.statusCode).toBe(400);
    const paths = res.json().details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/operations/1/counterparty/account",
        "/operations/2/counterparty/taxId",
        "/operations/2/counterparty/pixKey",
        "/operations/3/amount",
        "/operations/4/address",
        "/operations/5/currency",
      ]),
    );
    expect(paths.some((p: string) => p.startsWith("/operations/0"))).toBe(false);
    const account = res
      .json()
      .details.find((d: { path: string }) => d.path === "/operations/1/counterparty/account");
    expect(account.message).toMatch(/check digit should be \d/);
    const ids = (await list("bea"))
      .json()
      .data.operations.map((o: { operation: { operationId: string } }) => o.operation.operationId);
    expect(ids).not.toContain("op-ok");
  });

  it("refuses an instant a day ahead or before 2009, naming the item, and a NUL character", async () => {
    const res = await post([
      { ...buy, operationId: "far", at: "2099-01-01T00:00:00Z" },
      { ...buy, operationId: "old", at: "2008-12-31T00:00:00Z" },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toEqual([
      "/operations/0/at",
      "/operations/1/at",
    ]);
    // The service refuses a NUL in any request body before the route sees it.
    expect((await post([{ ...buy, operationId: "nul", asset: "US\u0000DT" }])).statusCode).toBe(400);
  });

  it("takes a valid Pix deposit with an alphanumeric CNPJ and its end-to-end id", async () => {
    const res = await post([
      {
        operationId: "op-pix-1",
        userId: "bea",
        kind: "fiat_deposit",
        at: "2026-11-03T12:00:00-03:00",
        currency: "BRL",
        amount: "250.50",
        rail: "pix",
        counterparty: { name: "Loja ABC Ltda", taxId: "12.ABC.345/01DE-35", pixKey: "+5511987654321" },
        reference: "E12345678202611031200abcdefghijk",
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
  });

  it("is for a developer key or above; a viewer reads", async () => {
    expect((await post([buy], svc.project.keys.viewer)).statusCode).toBe(403);
    expect((await list("bea")).statusCode).toBe(200);
  });

  it("refuses more than 1,000 operations in one request", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ ...buy, operationId: `many-${i}` }));
    expect((await post(many)).statusCode).toBe(400);
  });
});

describe("the operation rules", () => {
  it("12 SPEI payers then USDT to a sanctioned address: one fan-in alert and one withdrawal-to-risk alert naming the deposits", async () => {
    const deposits = Array.from({ length: 12 }, (_, i) =>
      spei(
        `mule-${i}`,
        "ana",
        `2026-11-04T${String(8 + i).padStart(2, "0")}:15:00-06:00`,
        "9500",
        `Pagador ${i + 1} López`,
        100 + i,
      ),
    );
    const res = await post([
      ...deposits,
      withdrawal("mule-out", "ana", "2026-11-04T21:00:00-06:00", "5600", SANCTIONED),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    await judgeAll();
    const all = await alertsOf("ana");
    // The withdrawal to a sanctioned address also meets the law: OFAC's rule and Mexico's 24-hour aviso, each an
    // alert of the client naming the operation.
    const law = all.filter((a) => a.cause === "law");
    expect(law.map((a) => a.reason.split(":")[0]).sort()).toEqual(["LFPIORPI", "OFAC SDN"]);
    for (const a of law) {
      expect(a.reason).toMatch(/Exchange operation mule-out \(user ana\)\.$/);
      expect(a.reasonText).toContain(
        `Exchange operation mule-out (user ana, for USD 5,600, with ${SANCTIONED})`,
      );
    }
    const alerts = all.filter((a) => a.cause !== "law");
    // Also a pass-through (USD 5,700 of pesos in, USD 5,600 of USDT out within the day), as it is.
    expect(alerts.map((a) => a.cause).sort()).toEqual(["fan_in", "pass_through", "withdrawal_to_risk"]);
    const fan = alerts.filter((a) => a.cause === "fan_in");
    const risk = alerts.filter((a) => a.cause === "withdrawal_to_risk");
    expect(fan).toHaveLength(1);
    expect(risk).toHaveLength(1);
    const depositIds = deposits.map((d) => d.operationId);
    expect(fan[0]?.evidence.operations.map((o) => o.operationId)).toEqual([...depositIds, "mule-out"]);
    expect(fan[0]?.reason).toMatch(/12 fiat deposits from 12 different payers/);
    expect(risk[0]).toMatchObject({ level: "critical", subject: { chainId: CHAIN, address: SANCTIONED } });
    expect(risk[0]?.evidence.operations.map((o) => o.operationId)).toEqual([...depositIds, "mule-out"]);
    expect(risk[0]?.reason).toMatch(/Funded in the 72 h before by 12 operations \(USD 5,700\)/);
    // The desk reads them in Spanish, times in her zone.
    const es = await alertsOf("ana", "es");
    expect(es.find((a) => a.cause === "fan_in")?.reasonText).toMatch(
      /recibió 12 depósitos en moneda fiduciaria de 12 ordenantes distintos/,
    );
    expect(es.find((a) => a.cause === "withdrawal_to_risk")?.reasonText).toMatch(
      /lo fondearon 12 operaciones/,
    );
    // The twelve payers are not Ana: no third-party alert beside the fan-in, which names them already.
    expect(alerts.filter((a) => a.cause === "third_party_funding")).toHaveLength(0);
    // Judged: nothing left for the monitor, nothing unjudged.
    const held = (await list("ana")).json().data.operations;
    expect(
      held.every(
        (o: { checkedAt: string | null; unjudged: string[] }) =>
          o.checkedAt !== null && o.unjudged.length === 0,
      ),
    ).toBe(true);
    // What the exchange holds for her (RCG Art. 24 Bis 3: since when, in which wallet, its value in pesos).
    await post([
      {
        operationId: "ana-custody",
        userId: "ana",
        kind: "custody_snapshot",
        at: "2026-11-05T23:59:00-06:00",
        balances: [
          {
            asset: "USDT",
            amount: "100",
            chainId: CHAIN,
            address: CLEAN,
            since: "2026-11-04T10:00:00-06:00",
          },
        ],
      },
    ]);
    // The evidence pack names the operations.
    const pack = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts/${fan[0]?.id}/evidence?format=md`,
      headers: { ...auth(svc.project.keys.viewer), "accept-language": "es" },
    });
    expect(pack.statusCode).toBe(200);
    expect(pack.body).toContain("## Operaciones en la plataforma");
    expect(pack.body).toContain("| mule-0 (fiat\\_deposit) | MXN 9500 |");
    expect(pack.body).toContain("Pagador 1 López");
    // One client, one picture: the highest of its alerts, each named, and its operations in figures.
    const picture = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/clients/ana`,
      headers: { ...auth(svc.project.keys.viewer), "accept-language": "es" },
    });
    expect(picture.statusCode, picture.body).toBe(200);
    const p = picture.json().data;
    expect(p.risk.level).toBe("critical");
    expect(p.risk.drivers.map((d: { kind: string; level: string }) => `${d.kind}:${d.level}`)).toEqual([
      "operations:critical",
      "operations:high",
      "operations:medium",
    ]);
    expect(p.risk.drivers[0].text).toMatch(/retiró 5600 USDT/);
    expect(p.operations).toMatchObject({ count: 14, payers: 12, destinations: 1 });
    expect(p.operations.byKind).toEqual([
      { kind: "fiat_deposit", count: 12, usd: 5_700, unvalued: 0 },
      { kind: "crypto_withdrawal", count: 1, usd: 5_600, unvalued: 0 },
      { kind: "custody_snapshot", count: 1, usd: 0, unvalued: 0 },
    ]);
    expect(p.operations.custody).toEqual({
      at: "2026-11-06T05:59:00.000Z",
      balances: [
        {
          asset: "USDT",
          amount: "100",
          chainId: CHAIN,
          address: CLEAN,
          since: "2026-11-04T16:00:00.000Z",
          usd: 100,
          mxn: 2_000,
        },
      ],
    });
    // The case of a client with only operations and alerts opens too.
    const caseRes = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/clients/ana/case`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(caseRes.statusCode).toBe(200);
    const none = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/clients/nadie/case`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(none.statusCode).toBe(404);
    // Sent again and judged again: nothing new.
    await post([...deposits]);
    await judgeAll();
    expect(await alertsOf("ana")).toHaveLength(all.length);
  });

  it("a payroll from the employer the profile declares and a deposit from the client's own account raise nothing; an undeclared payer is a third party", async () => {
    const payroll = Array.from({ length: 6 }, (_, i) =>
      spei(
        `pay-${i}`,
        "luis",
        `2026-11-0${2 + (i % 3)}T0${i}:30:00-06:00`,
        "8000",
        "Nómina Grupo Industrial SA de CV",
        500,
      ),
    );
    const own = spei("own-1", "luis", "2026-11-04T12:00:00-06:00", "3000", "Luis Soto", 1);
    own.counterparty.account = profiles.luis
      ? (profiles.luis as { mexico: { clabeInterbancaria: string } }).mexico.clabeInterbancaria
      : "";
    const res = await post([
      ...payroll,
      own,
      withdrawal("luis-out", "luis", "2026-11-04T20:00:00-06:00", "100", CLEAN),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    await judgeAll();
    // His declared employer pays Luis: no third party, no fan-in; his own account neither.
    expect(await alertsOf("luis")).toEqual([]);
    // An employer he never declared is a third party, once.
    const other = Array.from({ length: 2 }, (_, i) =>
      spei(`side-${i}`, "luis", `2026-11-05T0${i + 1}:00:00-06:00`, "4000", "Servicios Ajenos SA de CV", 600),
    );
    expect((await post(other)).statusCode).toBe(200);
    await judgeAll();
    const alerts = await alertsOf("luis");
    expect(alerts.map((a) => a.cause)).toEqual(["third_party_funding"]);
    expect(alerts[0]?.evidence.operations.map((o) => o.operationId).sort()).toEqual(["side-0", "side-1"]);
  });
});
