// A monitored Tron address from transfer to regulator: registered in base58, its USDT receipt (valued at USD 1, the
// peg of the chain's `pegged_tokens`, with no price imported) and a TRX receipt from an OFAC-listed Tron address
// (valued at the day's TRX price, 6 decimals) written as the indexer writes them; the real checker meets Mexico's
// rules; the notifications reach a real integrator on 127.0.0.1 signed, naming every address in base58; the month's
// AVI validates against the UIF's XSD and reports USDT under the catalog's fallback code with its ticker, TRX under
// its own code; a Colombian client's USDT operation is in Colombia's monthly file, in its layout. PGlite, or
// PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { XMLParser } from "fast-xml-parser";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tronBase58 } from "../../src/chains/address/index.ts";
import { TRON_MAINNET_ID } from "../../src/chains/index.ts";
import { NotificationDeliverer, ProfileReader } from "../../src/integrator/index.ts";
import { OTHER_VIRTUAL_ASSET, VIRTUAL_ASSET_CODES } from "../../src/jurisdictions/mx/catalogs.ts";
import { validateAvi } from "../../src/jurisdictions/mx/validate.ts";
import { createProject } from "../../src/keys/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { generateReports, UrgentAvisoWriter } from "../../src/reports/index.ts";
import { colombian, mexican } from "../jurisdictions/cases/profiles.ts";
import { checkCoLayout } from "../jurisdictions/support/co-layout.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CHAIN = TRON_MAINNET_ID;
const USDT = {
  base58: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  hex: "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c",
};
// A client's deposit address, an ordinary payer and an OFAC-listed sender (made-up keys, valid checksums).
const hexOf = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const CLIENT = hexOf(0x7001);
const PAYER = hexOf(0x7002);
const LISTED = hexOf(0x7003);
const DAY = "2026-10-14";
const T0 = Date.parse(`${DAY}T16:00:00Z`);
const TRX_USD = 0.25;
const BASE58 = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const STORED_FORM = /(?<![0-9a-fA-Fx])0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/;

let svc: TestService;
let integrator: http.Server;
let integratorUrl: string;
const webhooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let chain: MonitoredChain;

beforeAll(async () => {
  integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (/\/users\/mario/.test(req.url ?? ""))
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(mexican()));
      if (/\/users\/alicia/.test(req.url ?? ""))
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(colombian()));
      webhooks.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  const db = svc.database.db;
  chain = new MonitoredChain(db, CHAIN);
  await db
    .insertInto("prices")
    .values({ chain_id: CHAIN, token: "native", day: DAY, price_usd: String(TRX_USD) })
    .execute();
  await db
    .insertInto("fx_rates")
    .values(["2026-10-13", DAY].map((day) => ({ day, currency: "MXN", per_usd: "20" })))
    .execute();
  await db
    .insertInto("labels")
    .values({
      address: LISTED,
      chain_id: CHAIN,
      label: "OFAC SDN (test)",
      category: "sanctioned",
      source: "test",
    })
    .execute();
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: integratorUrl,
      jurisdictions: ["MX"],
      jurisdiction_settings: {
        MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
      },
    },
  });
  expect(patch.statusCode, patch.body).toBe(200);
  await chain.block(new Date(T0 - 60_000), []);
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/addresses`,
    headers: auth(svc.project.keys.developer),
    payload: { address: tronBase58(CLIENT), chainId: String(CHAIN), foreign_user_id: "mario" },
  });
  expect(res.statusCode, res.body).toBe(201);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  integrator.closeAllConnections();
  await new Promise((resolve) => integrator.close(resolve));
});

const checker = () =>
  new TransferChecker({
    db: svc.database.db,
    registry: svc.registry,
    profiles: new ProfileReader({ ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) }),
    slots: 1,
  });

describe("a monitored Tron address", () => {
  let usdtTx: string;
  let trxTx: string;

  it("is checked with USDT at USD 1 and TRX at the day's price, and notified in base58", async () => {
    // USD 10,000 of USDT (6 decimals): MXN 200,000, past Mexico's aviso threshold for virtual assets.
    usdtTx = (
      await chain.block(new Date(T0), [{ from: PAYER, to: CLIENT, value: 10_000_000_000n, token: USDT.hex }])
    )[0]!;
    // 4,000 TRX (6 decimals) at USD 0.25: USD 1,000, from an OFAC-listed address.
    trxTx = (
      await chain.block(new Date(T0 + 3_600_000), [{ from: LISTED, to: CLIENT, value: 4_000_000_000n }])
    )[0]!;
    const c = checker();
    while ((await c.runOnce()) > 0) {}
    const sent = await svc.database.db
      .selectFrom("notifications")
      .select(["type", "tx_hash", "body"])
      .orderBy("id")
      .execute();
    const notes = sent
      .filter((n) => n.type === "notification")
      .map((n) => ({ tx: n.tx_hash, body: JSON.parse(n.body) }));
    const usdt = notes.find((n) => n.tx === usdtTx)!.body.data;
    const trx = notes.find((n) => n.tx === trxTx)!.body.data;
    expect(usdt).toMatchObject({
      chainId: CHAIN,
      address: { userId: "mario", address: tronBase58(CLIENT) },
      counterparty: tronBase58(PAYER),
      amount: { valueDecimal: "10000000000", usd: 10_000 },
      token: { symbol: "USDT", decimals: 6, address: USDT.base58 },
      direction: "in",
    });
    expect(trx).toMatchObject({
      counterparty: tronBase58(LISTED),
      amount: { usd: 1_000 },
      token: { name: "TRX", decimals: 6, address: null },
    });
    expect(usdt.inflictedLaws.map((l: { id: string }) => l.id)).toContain("MX-AVISO");
    expect(trx.inflictedLaws.map((l: { id: string }) => l.id)).toContain("MX-24H-LISTA");
    for (const n of sent) expect(n.body).not.toMatch(STORED_FORM);
  });

  it("delivers the notifications signed", async () => {
    const deliverer = new NotificationDeliverer({
      ...svc.integrator,
      outbound: new OutboundClient({ allowPrivate: true }),
    });
    while ((await deliverer.runOnce()) > 0);
    const project = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}`,
      headers: auth(svc.project.keys.admin),
    });
    const secret = project.json().data.webhook_secret as string;
    expect(webhooks.length).toBeGreaterThanOrEqual(2);
    for (const w of webhooks) {
      new Webhook(secret).verify(w.body, w.headers as Record<string, string>);
      const data = JSON.parse(w.body).data;
      expect(data.address.address).toMatch(BASE58);
      expect(data.counterparty).toMatch(BASE58);
    }
  });

  it("files the month's AVI, valid against the XSD, with both operations and their assets", async () => {
    const summary = await generateReports(
      {
        ...svc.reports,
        profiles: new ProfileReader({
          ...svc.integrator,
          outbound: new OutboundClient({ allowPrivate: true }),
        }),
      },
      { projectId: svc.project.id, countryCode: "MX", period: "2026-10", trigger: "api", actor: "test" },
    );
    const [file] = await svc.database.db
      .selectFrom("reports")
      .select(["kind", "storage_key"])
      .where("project_id", "=", svc.project.id)
      .where("country_code", "=", "MX")
      .where("period", "=", "2026-10")
      .where("kind", "=", "monthly")
      .execute();
    expect(file, JSON.stringify(summary.problems)).toBeDefined();
    const xml = (await svc.reports.store.get(file!.storage_key))!.toString("utf8");
    expect(await validateAvi(xml)).toEqual({ valid: true });
    expect(xml).not.toMatch(STORED_FORM);
    const parsed = new XMLParser({ isArray: (name) => ["aviso", "recepcion"].includes(name) }).parse(xml);
    const received = parsed.archivo.informe.aviso.flatMap(
      (a: {
        operaciones_persona: {
          detalle_operaciones: {
            operaciones_transferencia: { transferencias_recibidas: { recepcion: object[] } };
          };
        };
      }) =>
        a.operaciones_persona.detalle_operaciones.operaciones_transferencia.transferencias_recibidas
          ?.recepcion ?? [],
    ) as { hash_operacion: string }[];
    // The month's aviso reports the USDT receipt (the TRX one, under the threshold, goes in the 24-hour aviso).
    const hashes = received.map((r) => String(r.hash_operacion).toLowerCase());
    expect(hashes).toEqual([usdtTx]);
    expect(received[0]).toMatchObject({
      monto_operacion_mn: 200_000,
      activo_virtual: { activo_virtual_operado: OTHER_VIRTUAL_ASSET, descripcion_activo_virtual: "USDT" },
    });
  });

  it("files the 24-hour aviso of the listed sender's TRX, valid against the XSD, under TRX's catalog code", async () => {
    const reports = {
      ...svc.reports,
      profiles: new ProfileReader({
        ...svc.integrator,
        outbound: new OutboundClient({ allowPrivate: true }),
      }),
    };
    while ((await new UrgentAvisoWriter(reports).runOnce()) > 0) {}
    const urgent = await svc.database.db
      .selectFrom("reports")
      .select(["tx_hash", "storage_key"])
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent")
      .execute();
    expect(urgent.map((u) => u.tx_hash)).toEqual([trxTx]);
    const xml = (await svc.reports.store.get(urgent[0]!.storage_key))!.toString("utf8");
    expect(await validateAvi(xml)).toEqual({ valid: true });
    expect(xml).not.toMatch(STORED_FORM);
    expect(xml).toContain(`<activo_virtual_operado>${VIRTUAL_ASSET_CODES.TRX}</activo_virtual_operado>`);
  });

  it("puts a Colombian client's USDT operation in Colombia's monthly file, in its layout, in base58", async () => {
    const db = svc.database.db;
    const project = await createProject(svc.keys, { name: "tron-co" }, { kind: "cli" });
    const patch = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${project.projectId}`,
      headers: auth(project.key),
      payload: {
        integration_url: integratorUrl,
        jurisdictions: ["CO"],
        jurisdiction_settings: { CO: { codigo_sirel: "PSAV-0042" } },
      },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    await db
      .insertInto("fx_rates")
      .values(["2026-10-20", "2026-10-21"].map((day) => ({ day, currency: "COP", per_usd: "4000" })))
      .execute();
    const client = hexOf(0x7101);
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${project.projectId}/addresses`,
      headers: auth(project.key),
      payload: { address: tronBase58(client), chainId: CHAIN, foreign_user_id: "alicia" },
    });
    expect(res.statusCode, res.body).toBe(201);
    // USD 200 of USDT out of the client's address: past Colombia's USD 150 for a single transaction.
    const [tx] = await chain.block(new Date(Date.parse("2026-10-21T15:00:00Z")), [
      { from: client, to: PAYER, value: 200_000_000n, token: USDT.hex },
    ]);
    const c = checker();
    while ((await c.runOnce()) > 0) {}
    await generateReports(
      {
        ...svc.reports,
        profiles: new ProfileReader({
          ...svc.integrator,
          outbound: new OutboundClient({ allowPrivate: true }),
        }),
      },
      { projectId: project.projectId, countryCode: "CO", period: "2026-10", trigger: "api", actor: "test" },
    );
    const [file] = await db
      .selectFrom("reports")
      .select(["storage_key"])
      .where("project_id", "=", project.projectId)
      .where("country_code", "=", "CO")
      .where("kind", "=", "monthly")
      .execute();
    expect(file).toBeDefined();
    const text = (await svc.reports.store.get(file!.storage_key))!.toString("latin1");
    expect(checkCoLayout(text)).toEqual([]);
    expect(text).not.toMatch(STORED_FORM);
    const record = text
      .split("\r\n")
      .find((l) => l.startsWith("1|") && l.toLowerCase().includes(tx!.slice(2)));
    expect(record).toBeDefined();
    expect(record).toContain(tronBase58(client));
    expect(record).toContain(tronBase58(PAYER));
  });
});
