// Mexico's law on the exchange's own operations, on the real service: each operation judged by the monitor with the
// client's history on chain and off (its laws recorded with the valuations), and October 2026's AVI written by the
// real generation and checked against the official XSD:
//  - a month with every block: a buy, a sale, a swap, fiat deposited and withdrawn by SPEI, a crypto withdrawal, a
//    crypto deposit and a transfer received on chain, each of 210 UMA or more, each its own aviso in its own block;
//  - a buy that completes a six-month accumulation begun on chain (the project accumulates `combined`): one aviso
//    carrying the two receipts and the buy;
//  - the fee aviso (LFPIORPI Art. 17 XVI b), 4 UMA: MXN 469.24 in 2026): a fee at the threshold makes its operation
//    an aviso with the fee described, a cent under makes nothing, and a fee on an operation of 210 UMA or more is
//    reported once, by amount (Reglamento Art. 31 Bis);
//  - the 24-hour aviso (LFPIORPI Art. 18-VI) of a withdrawal to an address on a sanctions list, whatever its amount:
//    written by the workers at once, in the envio block, owed in the month's filing calendar, and written once.
// Amounts in MXN at the test's rate of 20 per USD; times are Mexico City's. PGlite, or PostgreSQL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchangeClientOperations } from "../../src/exchange-operations/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { validateAvi } from "../../src/jurisdictions/mx/validate.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { filingCalendar, generateReports, UrgentAvisoWriter } from "../../src/reports/index.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { judgeAllOperations, validClabe } from "../support/operations.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { mexican } from "./cases/profiles.ts";

const CHAIN = 31337;
const ETH_USD = 1_000;
const MX_ENTITY = { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" };
const USDT = "0x00000000000000000000000000000000000u5d7".replace("u", "0").replace("u", "0");

let svc: TestService;
let integrator: http.Server;
let chain: MonitoredChain;
const address = (n: number) => `0x${(0xa000 + n).toString(16).padStart(40, "0")}`;
const stranger = (n: number) => `0x${(0xe000 + n).toString(16).padStart(40, "0")}`;
/** Mexico City's wall time as an ISO instant (UTC-6 in 2026: no daylight saving time). */
const mx = (wall: string) => `${wall.replace(" ", "T")}:00-06:00`;

beforeAll(async () => {
  integrator = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    if (!user) return res.writeHead(404).end();
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(mexican({ email: `${decodeURIComponent(user)}@example.mx` })));
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  const db = svc.database.db;
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
      jurisdictions: ["MX"],
      jurisdiction_settings: { MX: { ...MX_ENTITY, accumulation: "combined" } },
    },
  });
  expect(patch.statusCode, patch.body).toBe(200);
  // The project existed in the months the test files for: the calendar owes nothing for a month before a project
  // existed, and one created today would miss November's filings once today is past November.
  await db
    .updateTable("projects")
    .set({ created_at: new Date("2026-07-01T00:00:00Z") })
    .where("id", "=", svc.project.id)
    .execute();
  const days: string[] = [];
  for (let d = Date.parse("2026-07-25T00:00:00Z"); d <= Date.parse("2026-11-05T00:00:00Z"); d += 86_400_000)
    days.push(new Date(d).toISOString().slice(0, 10));
  await db
    .insertInto("fx_rates")
    .values(days.map((day) => ({ day, currency: "MXN", per_usd: "20" })))
    .execute();
  await db
    .insertInto("prices")
    .values(days.map((day) => ({ chain_id: CHAIN, token: "native", day, price_usd: String(ETH_USD) })))
    .execute();
  await db
    .insertInto("tokens")
    .values({ chain_id: CHAIN, address: USDT, symbol: "USDT", name: "Tether", decimals: 6, pegged_usd: "1" })
    .execute();
  // BTC on no chain of this service: its price by symbol, as a token of that symbol.
  await db
    .insertInto("tokens")
    .values({ chain_id: CHAIN, address: stranger(999), symbol: "BTC", name: "Bitcoin", decimals: 8 })
    .execute();
  await db
    .insertInto("prices")
    .values(days.map((day) => ({ chain_id: CHAIN, token: stranger(999), day, price_usd: "60000" })))
    .execute();
  chain = new MonitoredChain(db, CHAIN);
  // The chain's first block starts its follower: the transfers of the cases come after it.
  await chain.block(new Date("2026-07-01T00:00:00Z"), []);
});
afterAll(async () => {
  await svc?.stop();
  integrator.closeAllConnections();
  await new Promise((resolve) => integrator.close(resolve));
});

const post = async (operations: unknown[]) => {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/operations`,
    headers: auth(svc.project.keys.developer),
    payload: { operations },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const register = async (n: number, userId: string) => {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/addresses`,
    headers: auth(svc.project.keys.developer),
    payload: { address: address(n), chainId: CHAIN, foreign_user_id: userId },
  });
  expect(res.statusCode, res.body).toBe(201);
};
/** A transfer received on chain worth `mxn` pesos at the test's rate and price. */
const receive = (n: number, wall: string, mxn: number) =>
  chain.block(new Date(mx(wall)), [
    {
      from: stranger(n),
      to: address(n),
      value: (BigInt(mxn * 100) * 10n ** 18n) / (20n * BigInt(ETH_USD) * 100n),
    },
  ]);
const checkTransfers = async () => {
  const checker = new TransferChecker({
    db: svc.database.db,
    registry: svc.registry,
    profiles: new ProfileReader(
      { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
      { ttlMs: 0, failureBackoffMs: 0 },
    ),
    // As the service wires it: the client's operations in the exchange add to its accumulations.
    exchangeHistory: (q) => exchangeClientOperations(svc.database.db, { ...q, status: "recorded" }),
  });
  while ((await checker.runOnce()) > 0) {}
};
const lawsOf = async (operationId: string) =>
  (
    await svc.database.db
      .selectFrom("exchange_operations")
      .select("laws")
      .where("project_id", "=", svc.project.id)
      .where("operation_id", "=", operationId)
      .executeTakeFirstOrThrow()
  ).laws;

type Aviso = Record<string, unknown> & {
  operaciones_persona: { detalle_operaciones: Record<string, unknown> };
};
let october: Map<string, Aviso[]>;

async function generateOctober(): Promise<Map<string, Aviso[]>> {
  const summary = await generateReports(svc.reports, {
    projectId: svc.project.id,
    countryCode: "MX",
    period: "2026-10",
    trigger: "api",
    actor: "test",
  });
  expect(summary.problems, JSON.stringify(summary.problems)).toEqual([]);
  const files = await svc.database.db
    .selectFrom("reports")
    .select(["user_id", "storage_key"])
    .where("project_id", "=", svc.project.id)
    .where("country_code", "=", "MX")
    .where("period", "=", "2026-10")
    .where("kind", "=", "monthly")
    .execute();
  const out = new Map<string, Aviso[]>();
  const parser = new XMLParser({
    ignoreAttributes: true,
    parseTagValue: false,
    isArray: (name) => ["aviso"].includes(name),
  });
  for (const f of files) {
    const xml = (await svc.reports.store.get(f.storage_key)) as Buffer;
    expect(await validateAvi(xml.toString("utf8")), `${f.user_id}: XSD`).toEqual({ valid: true });
    const doc = parser.parse(xml.toString("utf8"));
    out.set(f.user_id as string, doc.archivo.informe.aviso as Aviso[]);
  }
  return out;
}

describe("Mexico's avisos of the exchange's operations", () => {
  beforeAll(async () => {
    // Every block: one client, eight operations of 210 UMA (MXN 24,635.10) or more.
    await register(1, "todo");
    await receive(1, "2026-10-02 10:00", 30_000);
    await checkTransfers();
    await post([
      {
        operationId: "t-buy",
        userId: "todo",
        kind: "buy",
        at: mx("2026-10-05 09:00"),
        asset: "USDT",
        amount: "1500",
        currency: "MXN",
        fiatAmount: "30000",
        price: "20",
      },
      {
        operationId: "t-sell",
        userId: "todo",
        kind: "sell",
        at: mx("2026-10-06 09:00"),
        asset: "BTC",
        amount: "0.25",
        currency: "MXN",
        fiatAmount: "300000",
        price: "1200000",
      },
      {
        operationId: "t-swap",
        userId: "todo",
        kind: "swap",
        at: mx("2026-10-07 09:00"),
        asset: "USDT",
        amount: "2000",
        assetReceived: "ETH",
        amountReceived: "1.98",
      },
      {
        operationId: "t-in",
        userId: "todo",
        kind: "fiat_deposit",
        at: mx("2026-10-08 09:00"),
        currency: "MXN",
        amount: "50000",
        rail: "spei",
        counterparty: { name: "Mario López Ruiz", bank: "BBVA México", account: validClabe(7) },
        reference: "BBVA20261008A1",
      },
      {
        operationId: "t-out",
        userId: "todo",
        kind: "fiat_withdrawal",
        at: mx("2026-10-09 09:00"),
        currency: "MXN",
        amount: "26000",
        rail: "spei",
        counterparty: { name: "Comercializadora del Norte SA de CV", account: "646180157000000004" },
        reference: "STP20261009B2",
      },
      {
        operationId: "t-send",
        userId: "todo",
        kind: "crypto_withdrawal",
        at: mx("2026-10-10 09:00"),
        asset: "USDT",
        amount: "1500",
        chainId: CHAIN,
        address: stranger(50),
        txHash: `0x${"5e".repeat(32)}`,
      },
      {
        operationId: "t-dep",
        userId: "todo",
        kind: "crypto_deposit",
        at: mx("2026-10-11 09:00"),
        asset: "USDT",
        amount: "1500",
        chainId: CHAIN,
        address: stranger(51),
        txHash: `0x${"7d".repeat(32)}`,
      },
    ]);
    // The chain before it: two receipts of MXN 10,000 (August, September); then the buy of MXN 5,000 that completes
    // MXN 24,635.10 over them (combined accumulation).
    await register(2, "acumula");
    await receive(2, "2026-08-20 12:00", 10_000);
    await receive(2, "2026-09-20 12:00", 10_000);
    await checkTransfers();
    await post([
      {
        operationId: "a-buy",
        userId: "acumula",
        kind: "buy",
        at: mx("2026-10-12 12:00"),
        asset: "USDT",
        amount: "250",
        currency: "MXN",
        fiatAmount: "5000",
        price: "20",
      },
    ]);
    // The other way: a buy of MXN 15,000 (October 3), then a receipt on chain of MXN 10,000 (October 20) completes
    // the combined accumulation: the transfer's check reads the client's exchange operations.
    await register(3, "inverso");
    await post([
      {
        operationId: "i-buy",
        userId: "inverso",
        kind: "buy",
        at: mx("2026-10-03 12:00"),
        asset: "USDT",
        amount: "750",
        currency: "MXN",
        fiatAmount: "15000",
        price: "20",
      },
    ]);
    await judgeAllOperations(svc);
    await receive(3, "2026-10-20 12:00", 10_000);
    await checkTransfers();
    // Two fees on one operation add up (RCG Art. 24 Bis 5): MXN 300 and MXN 169.24 reach 4 UMA with the second.
    await post([
      {
        operationId: "s-buy",
        userId: "suma",
        kind: "buy",
        at: mx("2026-10-17 10:00"),
        asset: "USDT",
        amount: "100",
        currency: "MXN",
        fiatAmount: "2000",
        price: "20",
      },
      {
        operationId: "s-fee-1",
        userId: "suma",
        kind: "fee",
        at: mx("2026-10-17 10:00"),
        currency: "MXN",
        amount: "300",
        of: "s-buy",
      },
      {
        operationId: "s-fee-2",
        userId: "suma",
        kind: "fee",
        at: mx("2026-10-17 10:01"),
        currency: "MXN",
        amount: "169.24",
        of: "s-buy",
      },
    ]);
    // Fees: at 4 UMA, a cent under, and on an operation of 210 UMA or more.
    await post([
      {
        operationId: "f-buy-1",
        userId: "comision",
        kind: "buy",
        at: mx("2026-10-14 10:00"),
        asset: "USDT",
        amount: "500",
        currency: "MXN",
        fiatAmount: "10000",
        price: "20",
      },
      {
        operationId: "f-fee-1",
        userId: "comision",
        kind: "fee",
        at: mx("2026-10-14 10:00"),
        currency: "MXN",
        amount: "469.24",
        of: "f-buy-1",
      },
      {
        operationId: "f-buy-2",
        userId: "comision",
        kind: "buy",
        at: mx("2026-10-15 10:00"),
        asset: "USDT",
        amount: "500",
        currency: "MXN",
        fiatAmount: "10000",
        price: "20",
      },
      {
        operationId: "f-fee-2",
        userId: "comision",
        kind: "fee",
        at: mx("2026-10-15 10:00"),
        currency: "MXN",
        amount: "469.23",
        of: "f-buy-2",
      },
      {
        operationId: "f-buy-3",
        userId: "comision",
        kind: "buy",
        at: mx("2026-10-16 10:00"),
        asset: "USDT",
        amount: "1500",
        currency: "MXN",
        fiatAmount: "30000",
        price: "20",
      },
      {
        operationId: "f-fee-3",
        userId: "comision",
        kind: "fee",
        at: mx("2026-10-16 10:00"),
        currency: "MXN",
        amount: "900",
        of: "f-buy-3",
      },
    ]);
    await judgeAllOperations(svc);
    october = await generateOctober();
  }, 120_000);

  it("judges each operation of 210 UMA or more an aviso by amount", async () => {
    for (const id of ["t-buy", "t-sell", "t-swap", "t-in", "t-out", "t-send", "t-dep"])
      expect(await lawsOf(id), id).toEqual(["MX-AVISO"]);
  });

  it("writes a month with every block, XSD-valid: compra, venta, intercambio, transferencias, fondos", () => {
    const avisos = october.get("todo") ?? [];
    expect(avisos).toHaveLength(8);
    const blocks = avisos.map((a) => Object.keys(a.operaciones_persona.detalle_operaciones).join(","));
    expect(blocks.sort()).toEqual([
      "operaciones_compra",
      "operaciones_fondos",
      "operaciones_fondos",
      "operaciones_intercambio",
      "operaciones_transferencia",
      "operaciones_transferencia",
      "operaciones_transferencia",
      "operaciones_venta",
    ]);
    const block = (name: string) =>
      avisos.map((a) => a.operaciones_persona.detalle_operaciones[name]).filter(Boolean) as Record<
        string,
        unknown
      >[];
    expect(block("operaciones_compra")[0]).toMatchObject({
      compra: {
        fecha_hora_operacion: "20261005090000",
        moneda_operacion: "1",
        monto_operacion: "30000.00",
        activo_virtual: {
          activo_virtual_operado: "999999",
          descripcion_activo_virtual: "USDT",
          tipo_cambio_mn: "20.00",
          cantidad_activo_virtual: "1500.00",
        },
        hash_operacion: "TBUY",
      },
    });
    expect(block("operaciones_venta")[0]).toMatchObject({
      venta: {
        monto_operacion: "300000.00",
        activo_virtual: {
          activo_virtual_operado: "1001",
          tipo_cambio_mn: "1200000.00",
          cantidad_activo_virtual: "0.25",
        },
      },
    });
    expect(block("operaciones_intercambio")[0]).toMatchObject({
      intercambio: {
        activo_virtual_enviado: {
          monto_operacion_mn: "40000.00",
          activo_virtual: { cantidad_activo_virtual: "2000.00" },
        },
        activo_virtual_recibido: {
          activo_virtual: { activo_virtual_operado: "1002", cantidad_activo_virtual: "1.98" },
        },
      },
    });
    const fondos = block("operaciones_fondos");
    expect(fondos).toContainEqual({
      fondos_depositados: {
        deposito: {
          fecha_hora_operacion: "20261008090000",
          instrumento_monetario: "8",
          moneda_operacion: "1",
          monto_operacion: "50000.00",
          datos_ordenante: {
            tipo_persona: {
              persona_fisica: { nombre: "MARIO", apellido_paterno: "LOPEZ", apellido_materno: "RUIZ" },
            },
            nacionalidad_cuenta: {
              nacional: { clabe_destino: validClabe(7), clave_institucion_financiera: "40012" },
            },
          },
        },
      },
    });
    expect(JSON.stringify(fondos)).toContain("COMERCIALIZADORA DEL NORTE SA DE CV");
    expect(JSON.stringify(fondos)).toContain("90646");
    const transfers = JSON.stringify(block("operaciones_transferencia"));
    expect(transfers).toContain("transferencias_recibidas");
    expect(transfers).toContain("transferencias_enviadas");
    expect(transfers).toContain("5E5E5E");
    // The crypto deposit, received at the client's deposit address, in the same block as a receipt on chain.
    expect(transfers).toContain("7D7D7D");
  });

  it("a buy completes an accumulation begun on chain: one aviso with the two receipts and the buy", async () => {
    expect(await lawsOf("a-buy")).toEqual(["MX-ACUMULACION"]);
    const [aviso, ...more] = october.get("acumula") ?? [];
    expect(more).toEqual([]);
    const detail = aviso?.operaciones_persona.detalle_operaciones as Record<string, Record<string, unknown>>;
    expect(Object.keys(detail).sort()).toEqual(["operaciones_compra", "operaciones_transferencia"]);
    const transfers = detail.operaciones_transferencia as {
      transferencias_recibidas: { recepcion: unknown[] };
    };
    const received = transfers.transferencias_recibidas.recepcion;
    expect(received).toHaveLength(2);
  });

  it("the fee aviso at 4 UMA, not a cent under, and once by amount when the operation is of 210 UMA", async () => {
    expect(await lawsOf("f-fee-1")).toEqual(["MX-AVISO-COMISION"]);
    expect(await lawsOf("f-fee-2")).toEqual([]);
    expect(await lawsOf("f-fee-3")).toEqual([]);
    expect(await lawsOf("f-buy-3")).toEqual(["MX-AVISO"]);
    const avisos = october.get("comision") ?? [];
    expect(avisos).toHaveLength(2);
    const described = avisos.find((a) => JSON.stringify(a).includes("CONTRAPRESTACION"));
    expect(JSON.stringify(described)).toContain("COMISION MXN 469.24");
    expect(JSON.stringify(described)).toContain("COBRADA EN LA OPERACION F-BUY-1");
    expect(described?.operaciones_persona.detalle_operaciones).toMatchObject({
      operaciones_compra: { compra: { monto_operacion: "10000.00" } },
    });
  });

  it("a transfer on chain completes an accumulation begun with a buy in the exchange", async () => {
    const [transfer] = await svc.database.db
      .selectFrom("monitored_transfers")
      .innerJoin("monitored_addresses", "monitored_addresses.id", "monitored_transfers.address_id")
      .select("monitored_transfers.laws")
      .where("monitored_addresses.foreign_user_id", "=", "inverso")
      .execute();
    expect(transfer?.laws).toEqual(["MX-ACUMULACION"]);
    const [aviso] = october.get("inverso") ?? [];
    expect(Object.keys(aviso?.operaciones_persona.detalle_operaciones ?? {}).sort()).toEqual([
      "operaciones_compra",
      "operaciones_transferencia",
    ]);
  });

  it("the fees of one operation add up: the second reaches 4 UMA", async () => {
    expect(await lawsOf("s-fee-1")).toEqual([]);
    expect(await lawsOf("s-fee-2")).toEqual(["MX-AVISO-COMISION"]);
  });

  it("notifies the integrator of an operation that met a law, with the operation in place of a transfer", async () => {
    const sent = await svc.database.db
      .selectFrom("notifications")
      .select("body")
      .where("project_id", "=", svc.project.id)
      .execute();
    const bodies = sent.map((s) => (typeof s.body === "string" ? JSON.parse(s.body) : s.body));
    const fee = bodies.find((b) => b.data?.operation?.operationId === "f-fee-1");
    expect(fee.data).toMatchObject({
      operation: { userId: "comision", kind: "fee", amount: { value: "469.24", unit: "MXN" } },
      inflictedLaws: [
        expect.objectContaining({ id: "MX-AVISO-COMISION", countryCode: "MX", verified: true }),
      ],
    });
  });
});

describe("Mexico's 24-hour aviso of an exchange operation", () => {
  const SANCTIONED = stranger(66);
  /** The officer marks a report filed with the UIF's folio. */
  const fileReport = (path: string, folio: string) =>
    svc.app!.inject({
      method: "POST",
      url: `/v1/reports/${encodeURIComponent(path)}/filed`,
      headers: auth(svc.project.keys.officer),
      payload: { folio },
    });
  beforeAll(async () => {
    await labelSanctioned(svc.database.db, SANCTIONED);
    // USDT 100 (MXN 2,000): far under any aviso by amount; the counterparty alone makes it urgent.
    await post([
      {
        operationId: "u-send",
        userId: "urgente",
        kind: "crypto_withdrawal",
        at: mx("2026-11-02 16:30"),
        asset: "USDT",
        amount: "100",
        chainId: CHAIN,
        address: SANCTIONED,
        txHash: `0x${"6f".repeat(32)}`,
      },
    ]);
    await judgeAllOperations(svc);
  }, 60_000);

  it("judges the withdrawal to a sanctioned address an urgent aviso (MX-24H-LISTA)", async () => {
    expect(await lawsOf("u-send")).toContain("MX-24H-LISTA");
  });

  it("the workers write it at once, XSD-valid, in the envio block with alert 4122; and only once", async () => {
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(1);
    const files = await svc.database.db
      .selectFrom("reports")
      .select(["name", "storage_key", "period", "tx_hash", "chain_id"])
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent")
      .execute();
    expect(files).toHaveLength(1);
    const [file] = files;
    expect(file).toMatchObject({ period: "2026-11", tx_hash: "op:u-send", chain_id: 0 });
    expect(file?.name).toMatch(/^urgente\.24h\.[0-9A-F]{14}\.xml$/);
    const xml = ((await svc.reports.store.get(file?.storage_key as string)) as Buffer).toString("utf8");
    expect(await validateAvi(xml)).toEqual({ valid: true });
    expect(xml).toContain("<prioridad>2</prioridad>");
    expect(xml).toContain("<tipo_alerta>4122</tipo_alerta>");
    expect(xml).toContain("<envio>");
    expect(xml).toContain(SANCTIONED.toUpperCase().slice(2));
    expect(xml).toContain("<fecha_hora_operacion>20261102163000</fecha_hora_operacion>");
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(0);
  });

  it("the month's filing calendar owes it, named by the operation, a day after it was judged", async () => {
    const filings = await filingCalendar(svc.reports, svc.project.id, "2026-11", "MX");
    const urgent = filings.filter((f) => f.name.startsWith("24-hour aviso"));
    expect(urgent).toHaveLength(1);
    expect(urgent[0]?.name).toContain("exchange operation u-send (user urgente; MX-24H-LISTA)");
    expect(urgent[0]?.state).toBe("generated");
  });

  it("filed with its folio, it closes the client's alert that waited on it as reported", async () => {
    const alerts = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts?client=urgente`,
      headers: auth(svc.project.keys.viewer),
    });
    const waiting = (alerts.json().data as { id: string; causeKey: string; status: string }[]).find(
      (a) => a.causeKey === "MX-24H-LISTA:urgente",
    );
    expect(waiting?.status).toBe("open");
    const file = await svc.database.db
      .selectFrom("reports")
      .select("path")
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent")
      .executeTakeFirstOrThrow();
    const filed = await fileReport(file.path, "2026-5120");
    expect(filed.statusCode, filed.body).toBe(200);
    const closed = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts/${waiting?.id}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(closed.json().data).toMatchObject({
      status: "closed",
      resolution: "reported",
      reference: "2026-5120",
    });
  });

  it("the officer's own aviso of a client with operations only names them, each in its block", async () => {
    const raise = (operationIds: string[]) =>
      svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${svc.project.id}/avisos`,
        headers: auth(svc.project.keys.officer),
        payload: {
          userId: "urgente",
          basis: "behaviour",
          narrative: "Retira a una direccion sancionada lo que recibe por SPEI de terceros",
          operationIds,
        },
      });
    const unknown = await raise(["u-send", "nunca"]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([
      expect.objectContaining({ path: "/operationIds", message: expect.stringContaining(": nunca") }),
    ]);
    const res = await raise(["u-send"]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ operationIds: ["u-send"], txHashes: [], state: "pending" });
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(1);
    const { reference } = res.json().data as { reference: string };
    const file = await svc.database.db
      .selectFrom("reports")
      .select("storage_key")
      .where("project_id", "=", svc.project.id)
      .where("path", "like", `%.24h.${reference}.xml`)
      .executeTakeFirstOrThrow();
    const xml = ((await svc.reports.store.get(file.storage_key)) as Buffer).toString("utf8");
    expect(await validateAvi(xml)).toEqual({ valid: true });
    expect(xml).toContain("<envio>");
    expect(xml).toContain("RETIRA A UNA DIRECCION SANCIONADA");
  });

  it("two withdrawals to it in one run: one alert carrying both, two avisos, reported once both are filed", async () => {
    await post(
      [1, 2].map((n) => ({
        operationId: `u2-send-${n}`,
        userId: "urgente2",
        kind: "crypto_withdrawal",
        at: mx(`2026-11-03 1${n}:00`),
        asset: "USDT",
        amount: String(50 * n),
        chainId: CHAIN,
        address: SANCTIONED,
        txHash: `0x${String(n).repeat(64)}`,
      })),
    );
    await judgeAllOperations(svc);
    const alertsOf = async () =>
      (
        await svc.app!.inject({
          url: `/v1/projects/${svc.project.id}/alerts?client=urgente2`,
          headers: auth(svc.project.keys.viewer),
        })
      ).json().data as {
        id: string;
        causeKey: string;
        status: string;
        reasonText: string;
        evidence: { transfers: { txHash: string }[] };
      }[];
    const [alert, ...others] = (await alertsOf()).filter((a) => a.causeKey === "MX-24H-LISTA:urgente2");
    expect(others).toEqual([]);
    expect(alert?.evidence.transfers.map((t) => t.txHash)).toEqual(["op:u2-send-1", "op:u2-send-2"]);
    expect(alert?.reasonText).toContain("Exchange operation u2-send-1 (user urgente2, for USD 50, with");
    expect(alert?.reasonText).toContain("and 1 more operation");
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(2);
    const files = await svc.database.db
      .selectFrom("reports")
      .select(["path", "tx_hash"])
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent")
      .where("tx_hash", "in", ["op:u2-send-1", "op:u2-send-2"])
      .orderBy("tx_hash")
      .execute();
    expect(files.map((f) => f.tx_hash)).toEqual(["op:u2-send-1", "op:u2-send-2"]);
    expect((await fileReport(files[0]?.path as string, "2026-5121")).statusCode).toBe(200);
    // One of its two avisos filed: the alert still waits on the other.
    expect((await alertsOf()).find((a) => a.id === alert?.id)?.status).toBe("open");
    expect((await fileReport(files[1]?.path as string, "2026-5122")).statusCode).toBe(200);
    expect((await alertsOf()).find((a) => a.id === alert?.id)?.status).toBe("closed");
  });

  it("a withdrawal the chain monitoring recorded after it was judged, meeting the rule too, owes one aviso: the transfer's", async () => {
    // The exchange withdraws for the client from a wallet the integrator registered as the client's (address 9) to
    // the sanctioned address, and tells of it before the chain monitoring has seen it: judged on its own, it meets
    // the 24-hour rule.
    await register(9, "urgente3");
    const at = "2026-11-04 09:00";
    // The hash the chain's next block gives its first transfer (test/support/monitored-chain.ts).
    const hash = `0x${((chain.head + 1) * 100).toString(16).padStart(64, "d")}`;
    await post([
      {
        operationId: "u3-out",
        userId: "urgente3",
        kind: "crypto_withdrawal",
        at: mx(at),
        asset: "ETH",
        amount: "0.1",
        chainId: CHAIN,
        address: SANCTIONED,
        txHash: hash,
      },
    ]);
    await judgeAllOperations(svc);
    expect(await lawsOf("u3-out")).toContain("MX-24H-LISTA");
    // Then the chain monitoring records and checks the transfer: the same movement, meeting the same rule.
    expect(
      await chain.block(new Date(mx(at)), [{ from: address(9), to: SANCTIONED, value: 10n ** 17n }]),
    ).toEqual([hash]);
    await checkTransfers();
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(1);
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(0);
    const files = await svc.database.db
      .selectFrom("reports")
      .select(["tx_hash", "chain_id"])
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent")
      .where("tx_hash", "in", [hash, "op:u3-out"])
      .execute();
    expect(files).toEqual([{ tx_hash: hash, chain_id: CHAIN }]);
    const owed = (await filingCalendar(svc.reports, svc.project.id, "2026-11", "MX")).filter((f) =>
      f.name.includes("user urgente3"),
    );
    expect(owed.map((f) => f.name)).toEqual([expect.stringContaining(`transaction ${hash}`)]);
  });

  it("a withdrawal to the client's own wallet on a sanctions list keeps its aviso when the transfer on chain meets nothing", async () => {
    // The client's own wallet (address 10, monitored) is on a sanctions list; the exchange pays it from its hot
    // wallet, whose transfer on chain has the hot wallet, not a listed address, as the other party.
    await register(10, "urgente4");
    await labelSanctioned(svc.database.db, address(10));
    const at = "2026-11-05 09:00";
    const hash = `0x${((chain.head + 1) * 100).toString(16).padStart(64, "d")}`;
    await post([
      {
        operationId: "u4-out",
        userId: "urgente4",
        kind: "crypto_withdrawal",
        at: mx(at),
        asset: "ETH",
        amount: "0.1",
        chainId: CHAIN,
        address: address(10),
        txHash: hash,
      },
    ]);
    await judgeAllOperations(svc);
    expect(await lawsOf("u4-out")).toContain("MX-24H-LISTA");
    await chain.block(new Date(mx(at)), [{ from: stranger(77), to: address(10), value: 10n ** 17n }]);
    await checkTransfers();
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(1);
    const files = await svc.database.db
      .selectFrom("reports")
      .select(["tx_hash", "chain_id"])
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent")
      .where("tx_hash", "in", [hash, "op:u4-out"])
      .execute();
    expect(files).toEqual([{ tx_hash: "op:u4-out", chain_id: 0 }]);
  });
});
