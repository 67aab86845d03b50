// The world of the officer's pages' browser test: the real service on 127.0.0.1 for a Mexican exchange, with its
// integrator's client profiles served from 127.0.0.1, OFAC's SDN list imported from its fixture, three monitored
// clients (a Mexican one and two on the SDN list), their transfers checked as the indexer writes them (which
// screens the two listed clients: two person_match alerts), one transfer of the Mexican client that infringed two
// rules (XB-OFAC and MX-24H-LISTA: two linked alerts, detected two days ago, the aviso's one overdue), 28 newer
// alerts to fill more than one page, and the people who sign in: an officer, a viewer and an administrator.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect } from "vitest";
import { raiseLawAlerts } from "../../src/alerts/index.ts";
import { importPersonListFiles } from "../../src/ingest/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { clientListings, Screener } from "../../src/screening/index.ts";
import { colombian, mexican } from "../jurisdictions/cases/profiles.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/person-lists");
const CHAIN = 31337;
export const MX_ENTITY = { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" };

export const CLIENTS = {
  mx: { userId: "cliente-mx", address: "0x00000000000000000000000000000000000d0001" },
  gilberto: { userId: "cliente-gilberto", address: "0x00000000000000000000000000000000000d0002" },
  miguel: { userId: "cliente-miguel", address: "0x00000000000000000000000000000000000d0003" },
} as const;
const COUNTERPARTY = "0x00000000000000000000000000000000000e0001";

const PROFILES: Record<string, object> = {
  [CLIENTS.mx.userId]: mexican(),
  // On OFAC's SDN list (entries 4107 and 4108 of the fixture), written as a client record would carry them.
  [CLIENTS.gilberto.userId]: colombian({
    givenName: "Gilberto José",
    paternalSurname: "Rodríguez",
    maternalSurname: "Orejuela",
    birthdate: "1939-01-31",
  }),
  [CLIENTS.miguel.userId]: colombian({
    givenName: "Miguel Ángel",
    paternalSurname: "Rodríguez",
    maternalSurname: "Orejuela",
    birthdate: "1943-11-23",
  }),
};

export interface Person {
  email: string;
  password: string;
  displayName: string;
}
export const PEOPLE = {
  officer: {
    email: "ana.lopez@exchange.mx",
    password: "Cumplimiento-Matutino-2026",
    displayName: "Ana López",
  },
  viewer: {
    email: "luis.perez@exchange.mx",
    password: "Solo-Consulta-Bandeja-2026",
    displayName: "Luis Pérez",
  },
  admin: { email: "rosa.diaz@exchange.mx", password: "Administra-Usuarios-2026!", displayName: "Rosa Díaz" },
} as const;

export interface DeskWorld {
  svc: TestService;
  url: string;
  /** the overdue MX-24H-LISTA alert and the XB-OFAC alert of the same transfer */
  overdueId: string;
  linkedId: string;
  /** the person_match alerts of the two listed clients */
  gilbertoAlert: string;
  miguelAlert: string;
  total: number;
  stop(): Promise<void>;
}

export async function startDeskWorld(): Promise<DeskWorld> {
  const svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  const url = await svc.listen();
  const db = svc.database.db;
  const integrator = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const profile = user ? PROFILES[decodeURIComponent(user)] : undefined;
    if (!profile) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  const api = async (method: string, apiPath: string, key: string, body?: object) => {
    const res = await fetch(`${url}${apiPath}`, {
      method,
      headers: { ...auth(key), ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    expect(res.status, `${method} ${apiPath}: ${text}`).toBeLessThan(300);
    return JSON.parse(text) as { data: unknown };
  };
  const { id: projectId, keys } = svc.project;
  await api("PATCH", `/v1/projects/${projectId}`, keys.admin, {
    integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
    jurisdictions: ["MX"],
    mx_reporting_entity: MX_ENTITY,
  });
  const register = async (address: string, userId: string) =>
    (
      (await api("POST", `/v1/projects/${projectId}/addresses`, keys.developer, {
        address,
        chainId: CHAIN,
        foreign_user_id: userId,
      })) as { data: { id: number | string } }
    ).data.id;
  const mxAddressId = await register(CLIENTS.mx.address, CLIENTS.mx.userId);
  await register(CLIENTS.gilberto.address, CLIENTS.gilberto.userId);
  await register(CLIENTS.miguel.address, CLIENTS.miguel.userId);
  const sdn = await importPersonListFiles(db, "ofac-sdn", [
    path.join(FIXTURES, "ofac-csv/sdn.csv"),
    path.join(FIXTURES, "ofac-csv/alt.csv"),
  ]);
  expect(sdn.status).toBe("imported");

  // Transfers as the indexer writes them, checked: the clients' profiles are read, and the listed ones screened.
  const screener = new Screener(db);
  const checker = new TransferChecker({
    db,
    registry: svc.registry,
    profiles: new ProfileReader(
      { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
      { ttlMs: 0, failureBackoffMs: 0 },
    ),
    clientListings: (client, read) => clientListings(db, screener, client, read, new Date()),
  });
  const chain = new MonitoredChain(db, CHAIN);
  const detected = new Date(Date.now() - 48 * 3_600_000);
  // Monitoring starts at registration: the transfers come after it; their rules' alerts are raised as if found two days ago.
  const [mxTx] = await chain.block(new Date(), [
    { from: COUNTERPARTY, to: CLIENTS.mx.address, value: 10n ** 15n },
  ]);
  await chain.block(new Date(Date.now() + 1000), [
    { from: COUNTERPARTY, to: CLIENTS.gilberto.address, value: 10n ** 15n },
    { from: COUNTERPARTY, to: CLIENTS.miguel.address, value: 10n ** 15n },
  ]);
  while ((await checker.runOnce()) > 0) {}

  // The Mexican client's transfer came from a sanctioned counterparty: two rules, two alerts, one transfer.
  const transfer = {
    txHash: mxTx!,
    logIndex: -1,
    at: detected.toISOString(),
    usd: 3,
    direction: "in",
    counterparty: COUNTERPARTY,
  };
  const law = (id: string, name: string, country: string, countryCode: string) => ({
    id,
    name,
    description: "Operation with a person on a list.",
    source: id === "XB-OFAC" ? "31 CFR 501" : "RCG Art. 30",
    risk: "illegal" as const,
    country,
    countryCode,
  });
  const raised = await db.transaction().execute((trx) =>
    raiseLawAlerts(trx, {
      projectId,
      chainId: CHAIN,
      address: CLIENTS.mx.address,
      addressId: mxAddressId,
      userId: CLIENTS.mx.userId,
      notificationId: null,
      transfer,
      laws: [
        law("MX-24H-LISTA", "Aviso de 24 horas", "mexico", "MX"),
        law("XB-OFAC", "OFAC SDN: sanctioned counterparty", "international", "XX"),
      ],
      now: detected,
    }),
  );
  expect(raised).toHaveLength(2);
  // 28 newer alerts on other addresses: the inbox has more than one page, the overdue one oldest of all.
  for (let i = 0; i < 28; i++) {
    const address = `0x${(0xf0000 + i).toString(16).padStart(40, "0")}`;
    const userId = `cliente-${String(i).padStart(2, "0")}`;
    const addressId = await register(address, userId);
    await db.transaction().execute((trx) =>
      raiseLawAlerts(trx, {
        projectId,
        chainId: CHAIN,
        address,
        addressId,
        userId,
        notificationId: null,
        transfer: { ...transfer, txHash: `0x${(0xabc000 + i).toString(16).padStart(64, "0")}` },
        laws: [law("XB-OFAC", "OFAC SDN: sanctioned counterparty", "international", "XX")],
        now: new Date(Date.now() - (40 - i) * 60_000),
      }),
    );
  }

  const list = (await api("GET", `/v1/projects/${projectId}/alerts?limit=100`, keys.viewer)) as {
    data: { id: string; cause: string; causeKey: string; subject: { userId: string | null } }[];
  };
  const byKey = (cause: string, userId: string, key?: string) =>
    list.data.find(
      (a) => a.cause === cause && a.subject.userId === userId && (key === undefined || a.causeKey === key),
    )?.id;
  const overdueId = byKey("law", CLIENTS.mx.userId, "MX-24H-LISTA");
  const linkedId = byKey("law", CLIENTS.mx.userId, "XB-OFAC");
  const gilbertoAlert = byKey("person_match", CLIENTS.gilberto.userId);
  const miguelAlert = byKey("person_match", CLIENTS.miguel.userId);
  expect({ overdueId, linkedId, gilbertoAlert, miguelAlert }).toEqual({
    overdueId: expect.any(String),
    linkedId: expect.any(String),
    gilbertoAlert: expect.any(String),
    miguelAlert: expect.any(String),
  });

  for (const [role, p] of Object.entries(PEOPLE))
    await api("POST", `/v1/projects/${projectId}/users`, keys.admin, {
      email: p.email,
      displayName: p.displayName,
      role,
      password: p.password,
    });

  return {
    svc,
    url,
    overdueId: overdueId!,
    linkedId: linkedId!,
    gilbertoAlert: gilbertoAlert!,
    miguelAlert: miguelAlert!,
    total: list.data.length,
    async stop() {
      integrator.closeAllConnections();
      await new Promise((resolve) => integrator.close(resolve));
      await svc.stop();
    },
  };
}
