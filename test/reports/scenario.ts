// The fixed scenario of the report tests: a project enabling MX, CO, SV and GT, an integrator on 127.0.0.1 that
// answers its users' profiles, and monitored transfers written as the indexer writes them and checked by the real
// checker. Mexico's clients (in Mexico City, and a trust in Austin that the project's `client_jurisdiction` maps to
// Mexico) at dates around Mexico's threshold changes: the UMA of 2026 (1 February) and the 2025 reform (17 July), a
// six-month accumulation across two addresses of one user, a transfer over USD 10,000, and one from a sanctioned
// address (a 24-hour aviso); and one client in each of Bogotá, San Salvador and Guatemala City, whose operations go
// to their own country's files only. ETH is priced at USD 1,000 every day, the peso at 20 per dollar (1 ETH = MXN
// 20,000) and the Colombian peso at 4,000.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { EVM_CODEC } from "../../src/chains/address/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, type TestService } from "../support/service.ts";

export const CHAIN = 31337;
export const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
export const SANCTIONED = addr(0x5a);
const ETH = 10n ** 18n;
const eth = (tenths: number) => (BigInt(tenths) * ETH) / 10n;

const mexican = (extra: object) => ({
  nationality: "MX",
  email: "cliente@example.mx",
  phoneNumber: { countryCode: "52", phoneNumber: 5512345678 },
  address: {
    country: "MX",
    colonia: "Roma Norte",
    street: "Av. Álvaro Obregón",
    exteriorNumber: "120",
    interiorNumber: "4B",
    postalCode: "06700",
  },
  colombia: {
    tipoIdentificacion: "13",
    numeroIdentificacion: "1020304050",
    numeroCliente: "C-77",
    ciudadResidencia: "11001",
    fechaVinculacion: "2024-05-02",
    numeroWallet: "W-1",
  },
  ...extra,
});

export const PROFILES: Record<string, unknown> = {
  "u-jan31": mexican({
    givenName: "José María",
    paternalSurname: "Núñez",
    maternalSurname: "Peña",
    birthdate: "1985-03-14",
    mexico: {
      rfc: "NUPJ850314AB1",
      curp: "NUPJ850314HDFXXS01",
      actividadEconomica: 8250100,
      documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1234567" },
    },
  }),
  "u-feb01": mexican({
    givenName: "Ana",
    paternalSurname: "Ruiz",
    maternalSurname: "Soto",
    mexico: { curp: "RUSA900102MDFZTN03", actividadEconomica: 8250100 },
  }),
  "u-jul16": mexican({
    givenName: "Luis",
    paternalSurname: "Mora",
    maternalSurname: "Vega",
    birthdate: "1970-01-01",
  }),
  "u-jul17": mexican({
    tipoPersona: "moral",
    denominacionRazon: "Comercializadora del Norte, S.A. de C.V.",
    fechaConstitucion: "2010-06-30",
    mexico: { rfc: "CNO100630XY1", giroMercantil: 4610001 },
    representanteApoderado: {
      givenName: "Marta",
      paternalSurname: "Gómez",
      maternalSurname: "Lara",
      curp: "GOLM800101MDFMRR09",
      documentoIdentificacion: { tipoIdentificacion: 2, numeroIdentificacion: "G12345678" },
    },
  }),
  "u-acc": {
    tipoPersona: "fideicomiso",
    denominacionRazon: "Banco Fiduciario SA Fideicomiso 7788",
    nationality: "US",
    address: {
      country: "US",
      region: "Texas",
      city: "Austin",
      colonia: "Downtown",
      street: "Congress Ave",
      exteriorNumber: "100",
      postalCode: "78701",
    },
    mexico: { identificadorFideicomiso: "FID-7788" },
    delegadoFiduciario: {
      givenName: "Pedro",
      paternalSurname: "Díaz",
      maternalSurname: "Ortiz",
      rfc: "DIOP750505H12",
      documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "9988776655" },
    },
    colombia: { tipoIdentificacion: "22", numeroIdentificacion: "X778899" },
  },
  "u-co": {
    givenName: "Camila",
    paternalSurname: "Restrepo",
    maternalSurname: "Gómez",
    nationality: "CO",
    address: { country: "CO", city: "Bogotá" },
    colombia: {
      tipoIdentificacion: "13",
      numeroIdentificacion: "52123456",
      numeroCliente: "C-901",
      ciudadResidencia: "11001",
      fechaVinculacion: "2025-01-15",
      numeroWallet: "W-901",
    },
  },
  "u-sv": { givenName: "Óscar", paternalSurname: "Menjívar", nationality: "SV", address: { country: "SV" } },
  "u-gt": { givenName: "Lucía", paternalSurname: "Xocop", nationality: "GT", address: { country: "GT" } },
  "u-big": mexican({
    givenName: "Carla",
    paternalSurname: "Ibarra",
    maternalSurname: "Quintero",
    birthdate: "1992-11-30",
    mexico: {
      rfc: "IAQC921130K77",
      actividadEconomica: 8120100,
      documentoIdentificacion: { tipoIdentificacion: 2, numeroIdentificacion: "P0099887" },
      cuentaRelacionada: "CTA-0001",
      clabeInterbancaria: "012180001234567891",
    },
  }),
};

/** Users and the addresses registered for them (u-acc has two). */
const USERS: [number, string][] = [
  [1, "u-jan31"],
  [2, "u-feb01"],
  [3, "u-jul16"],
  [4, "u-jul17"],
  [5, "u-acc"],
  [6, "u-acc"],
  [7, "u-big"],
  [8, "u-co"],
  [9, "u-sv"],
  [10, "u-gt"],
];

/** The transfers, at noon UTC (06:00 in Mexico City) unless said. */
const TRANSFERS: { at: string; from: string; to: string; value: bigint }[] = [
  { at: "2025-07-16T18:00:00Z", from: addr(0x91), to: addr(3), value: eth(36) }, // MXN 72,000 < 645 UMA 72,975.30
  { at: "2025-07-17T18:00:00Z", from: addr(0x91), to: addr(4), value: eth(12) }, // MXN 24,000 ≥ 210 UMA 23,759.40
  { at: "2026-01-31T18:00:00Z", from: addr(1), to: addr(0x92), value: eth(12) }, // ≥ 23,759.40 (UMA 2025)
  { at: "2026-02-01T18:00:00Z", from: addr(0x92), to: addr(2), value: eth(12) }, // < 24,635.10 (UMA 2026)
  { at: "2026-03-05T18:00:00Z", from: addr(0x93), to: addr(5), value: eth(7) }, // MXN 14,000 into u-acc's first
  { at: "2026-03-10T18:00:00Z", from: addr(7), to: addr(0x94), value: eth(120) }, // USD 12,000
  { at: "2026-03-15T18:00:00Z", from: SANCTIONED, to: addr(1), value: eth(1) }, // listed counterparty
  { at: "2026-03-20T18:00:00Z", from: addr(0x95), to: addr(6), value: eth(6) }, // + 12,000 into its second: 26,000
  { at: "2026-03-09T15:00:00Z", from: addr(0x96), to: addr(8), value: eth(2) }, // u-co: USD 200 (individual)
  { at: "2026-03-11T15:00:00Z", from: addr(8), to: addr(0x96), value: eth(1) }, // USD 100
  { at: "2026-03-13T15:00:00Z", from: addr(0x96), to: addr(8), value: eth(2) }, // USD 200: the month reaches 500
  { at: "2026-03-11T16:00:00Z", from: addr(0x97), to: addr(9), value: eth(300) }, // u-sv: USD 30,000
  { at: "2026-03-12T16:00:00Z", from: addr(10), to: addr(0x98), value: eth(120) }, // u-gt: USD 12,000
].sort((a, b) => (a.at < b.at ? -1 : 1));

export interface Integrator {
  url: string;
  close(): Promise<void>;
}

export async function startIntegrator(profiles: Record<string, unknown> = PROFILES): Promise<Integrator> {
  const server = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const profile = user ? profiles[decodeURIComponent(user)] : undefined;
    if (!profile) return res.writeHead(user ? 404 : 200).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const MX_ENTITY = { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" };
export const CO_ENTITY = { codigo_sirel: "PSAV-0042" };

/** Configures the project, registers the addresses, indexes and checks the transfers. */
export async function buildScenario(svc: TestService, integratorUrl: string): Promise<void> {
  const db = svc.database.db;
  // The project has served its clients since 2024: the months of the scenario are its own (nothing is owed for a
  // month before a project existed).
  await db
    .updateTable("projects")
    .set({ created_at: new Date("2024-01-01T00:00:00Z") } as never)
    .where("id", "=", svc.project.id)
    .execute();
  const days = new Set(TRANSFERS.map((t) => t.at.slice(0, 10)));
  await db
    .insertInto("prices")
    .values([...days].map((day) => ({ chain_id: CHAIN, token: "native", day, price_usd: "1000" })))
    .execute();
  // The rates of each day with a transfer, and the day before (a rate is looked for at most ten days back).
  const rateDays = new Set(
    [...days].flatMap((day) => [day, new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10)]),
  );
  await db
    .insertInto("fx_rates")
    .values(
      [...rateDays].flatMap((day) => [
        { day, currency: "MXN", per_usd: "20" },
        { day, currency: "COP", per_usd: "4000" },
      ]),
    )
    .execute();
  await labelSanctioned(db, SANCTIONED);
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: integratorUrl,
      jurisdictions: ["MX", "CO", "SV", "GT"],
      jurisdiction_settings: { MX: MX_ENTITY, CO: CO_ENTITY },
      // The trust in Austin is a client of the Mexican entity.
      client_jurisdiction: { countries: { US: "MX" } },
    },
  });
  expect(patch.statusCode).toBe(200);
  const chain = new MonitoredChain(db, CHAIN);
  const index = (transfers: typeof TRANSFERS) =>
    chain.block(new Date(transfers[0]?.at ?? "2025-07-01T00:00:00Z"), transfers);
  await index([]);
  for (const [i, user] of USERS) {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address: addr(i), chainId: CHAIN, foreign_user_id: user },
    });
    expect(res.statusCode).toBe(201);
  }
  for (const t of TRANSFERS) await index([t]);
  const checker = new TransferChecker({
    db,
    registry: {
      get: (id: number) => (id === CHAIN ? { id, currency_symbol: "ETH", currency_decimals: 18 } : undefined),
      codec: () => EVM_CODEC,
    } as never,
    profiles: new ProfileReader({ ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) }),
    // The checks happen on the reports' clock, as in production, where both are the wall clock.
    now: svc.reports.now,
  });
  while ((await checker.runOnce()) > 0) {}
}
