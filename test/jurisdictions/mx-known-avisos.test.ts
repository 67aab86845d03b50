// Mexico's 24-hour avisos that no transfer triggers (LFPIORPI Art. 18 fracción VI párrafo segundo; RCG Arts. 26 Bis 2
// and 27 párrafo segundo as reformed by Acuerdo 115/2026, in force 30-11-2026): a client found on the UIF's Lista de
// Personas Bloqueadas owes an aviso within 24 hours of the moment the provider learns of it, whether or not it has
// operated since. The legal cases in a reviewer's order: the UN list imported, a client's transfer checked (clear),
// a dormant client registered and never operating, a Colombian client; then an LPB naming all three. The real
// transfer checker, the real screening workers (profiles from an integrator on 127.0.0.1), the real writer of
// urgent avisos, the filing calendar through the API; each AVI checked against the official XSD. PGlite, or
// PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPersonListFiles } from "../../src/ingest/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { validateAvi } from "../../src/jurisdictions/mx/validate.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { UrgentAvisoWriter } from "../../src/reports/index.ts";
import { clientListings, importPersonList, rescreenClients, Screener } from "../../src/screening/index.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { colombian, mexican } from "./cases/profiles.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/person-lists");
const CHAIN = 31337;
const OPERATED = "0x00000000000000000000000000000000000d0001";
const DORMANT = "0x00000000000000000000000000000000000d0002";
const COLOMBIAN = "0x00000000000000000000000000000000000d0003";
const OTHER = "0x00000000000000000000000000000000000e0001";
const DAY_MS = 24 * 3600_000;

const PROFILES: Record<string, object> = {
  "u-operated": mexican({
    givenName: "Ramiro",
    paternalSurname: "Quintanilla",
    maternalSurname: "Sepúlveda",
  }),
  "u-dormant": mexican({ givenName: "Rosendo", paternalSurname: "Villaseñor", maternalSurname: "Treviño" }),
  "u-colombian": colombian({
    givenName: "Wilfrido",
    paternalSurname: "Arboleda",
    maternalSurname: "Quiceno",
  }),
};

/** The LPB as the UIF would deliver it, naming the three clients (invented persons). */
const LPB = [
  { entryId: "LPB-T-0001", name: "QUINTANILLA SEPULVEDA RAMIRO", birthdate: "1990-01-02" },
  { entryId: "LPB-T-0002", name: "VILLASENOR TREVINO ROSENDO", birthdate: "1990-01-02" },
  { entryId: "LPB-T-0003", name: "ARBOLEDA QUICENO WILFRIDO" },
];

/** 10:00 on 3 December 2026 in Mexico City: when the LPB is imported and screened. */
const KNOWN = new Date("2026-12-03T16:00:00Z");

let svc: TestService;
let integrator: http.Server;
let reads = 0;
let screener: Screener;
let profiles: ProfileReader;
let chain: MonitoredChain;

const db = () => svc.database.db;
const screen = (now: Date) =>
  rescreenClients(
    db(),
    screener,
    100,
    () => now,
    (p, u) => profiles.read(p, u),
  );
const writeAvisos = async () => {
  const writer = new UrgentAvisoWriter({ ...svc.reports, profiles });
  while ((await writer.runOnce()) > 0) {}
};

beforeAll(async () => {
  svc = await startTestService();
  integrator = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const profile = user ? PROFILES[decodeURIComponent(user)] : undefined;
    if (req.method === "GET") reads += 1;
    if (!profile) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
      jurisdictions: ["MX", "CO"],
      jurisdiction_settings: {
        MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
      },
    },
  });
  expect(patch.statusCode, patch.body).toBe(200);
  profiles = new ProfileReader(
    { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
    { ttlMs: 0, failureBackoffMs: 0 },
  );
  screener = new Screener(db());
  chain = new MonitoredChain(db(), CHAIN);
});
afterAll(async () => {
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
  await svc?.close();
});

const register = async (address: string, user: string) => {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/addresses`,
    headers: auth(svc.project.keys.developer),
    payload: { address, chainId: CHAIN, foreign_user_id: user },
  });
  expect(res.statusCode, res.body).toBe(201);
};

const alertsOf = async () => {
  const res = await svc.app!.inject({
    url: `/v1/projects/${svc.project.id}/alerts?cause=person_match`,
    headers: auth(svc.project.keys.viewer),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    id: string;
    level: string;
    causeKey: string;
    subject: { userId: string };
    deadline: { at: string; filing: string; source: string } | null;
  }[];
};

const urgentFiles = () =>
  db()
    .selectFrom("reports")
    .select(["user_id", "path", "storage_key", "tx_hash", "period"])
    .where("project_id", "=", svc.project.id)
    .where("kind", "=", "urgent")
    .orderBy("user_id")
    .execute();

describe("Mexico: the 24-hour aviso of a client found on the LPB, from the moment it is known", () => {
  it("a client who operated, one registered and dormant and a Colombian are queued at registration and screened against the UN list: clear", async () => {
    await register(OPERATED, "u-operated");
    await register(DORMANT, "u-dormant");
    await register(COLOMBIAN, "u-colombian");
    await importPersonListFiles(db(), "un", [path.join(FIXTURES, "un_consolidated.xml")]);
    // The market of the operating client's day: ETH at USD 2,000 and MXN 20 a dollar.
    for (const day of ["2026-12-01", "2026-12-02", "2026-12-03"]) {
      await db()
        .insertInto("prices")
        .values({ chain_id: CHAIN, token: "native", day, price_usd: "2000" })
        .execute();
      await db().insertInto("fx_rates").values({ day, currency: "MXN", per_usd: "20" }).execute();
    }
    // The operating client's transfer is checked, and the client screened for it.
    await chain.block(new Date("2026-12-02T17:00:00Z"), [{ from: OTHER, to: OPERATED, value: 10n ** 15n }]);
    const checker = new TransferChecker({
      db: db(),
      registry: svc.registry,
      profiles,
      clientListings: (client, read) =>
        clientListings(db(), screener, client, read, new Date("2026-12-02T17:00:05Z")),
    });
    while ((await checker.runOnce()) > 0) {}
    // The workers screen the others, dormant or not, from their profiles.
    const run = await screen(new Date("2026-12-02T17:01:00Z"));
    expect(run).toMatchObject({ claimed: 2, screened: 2, alerts: 0, failed: [] });
    const rows = await db()
      .selectFrom("client_screenings")
      .select(["user_id", "verdict"])
      .where("project_id", "=", svc.project.id)
      .orderBy("user_id")
      .execute();
    expect(rows).toEqual([
      { user_id: "u-colombian", verdict: "clear" },
      { user_id: "u-dormant", verdict: "clear" },
      { user_id: "u-operated", verdict: "clear" },
    ]);
    expect(reads).toBe(3);
  });

  it("an LPB naming the three, screened at 10:00 Mexico City: alerts due 24 hours later (MX-URGENT, LFPIORPI 18-VI and RCG 26 Bis 2/27), one aviso each recorded", async () => {
    await db()
      .transaction()
      .execute((trx) =>
        importPersonList(
          trx,
          {
            kind: "mx-lpb",
            version: "LPB-2026-12-03",
            listDate: "2026-12-03",
            source: "test",
            projectId: svc.project.id,
          },
          (async function* () {
            for (const p of LPB)
              yield {
                entryId: p.entryId,
                type: "person" as const,
                names: [p.name],
                dates: p.birthdate ? [p.birthdate] : [],
                countries: [],
                identifiers: [],
                programs: ["LPB"],
              };
          })(),
        ),
      );
    const run = await screen(KNOWN);
    expect(run).toMatchObject({ claimed: 3, screened: 3, alerts: 3, failed: [] });
    // Screened from the persons kept: no profile read again.
    expect(reads).toBe(3);
    const alerts = await alertsOf();
    expect(alerts.map((a) => [a.subject.userId, a.level, a.causeKey]).sort()).toEqual([
      ["u-colombian", "match", "mx-lpb:LPB-T-0003"],
      ["u-dormant", "match", "mx-lpb:LPB-T-0002"],
      ["u-operated", "match", "mx-lpb:LPB-T-0001"],
    ]);
    for (const a of alerts) {
      expect(a.deadline?.at).toBe(new Date(KNOWN.getTime() + DAY_MS).toISOString());
      expect(a.deadline?.filing).toBe("MX-URGENT");
      expect(a.deadline?.source).toMatch(
        /Art\. 18 fracción VI párrafo segundo.*Acuerdo 115\/2026.*Arts\. 26 Bis 2, 27 párrafo segundo/,
      );
    }
    const avisos = await db()
      .selectFrom("avisos")
      .select(["user_id", "basis", "origin", "period", "known_at", "deadline"])
      .where("project_id", "=", svc.project.id)
      .orderBy("user_id")
      .execute();
    expect(avisos.map((a) => [a.user_id, a.basis, a.origin, a.period])).toEqual([
      ["u-colombian", "listed-person", "screening", "2026-12"],
      ["u-dormant", "listed-person", "screening", "2026-12"],
      ["u-operated", "listed-person", "screening", "2026-12"],
    ]);
    expect(new Date(avisos[0]?.deadline as Date).getTime() - KNOWN.getTime()).toBe(DAY_MS);
  });

  it("the files: a prioridad-2 AVI with alert 4107 for each Mexican client, no operation, valid against the XSD; the Colombian owes none here and its alert loses the deadline", async () => {
    await writeAvisos();
    const files = await urgentFiles();
    expect(files.map((f) => [f.user_id, f.tx_hash, f.period])).toEqual([
      ["u-dormant", null, "2026-12"],
      ["u-operated", null, "2026-12"],
    ]);
    const parser = new XMLParser({ parseTagValue: false });
    for (const f of files) {
      expect(f.path).toMatch(
        new RegExp(`^mx/${svc.project.id}/2026-12/${f.user_id}\\.24h\\.[0-9A-F]{14}\\.xml$`),
      );
      const xml = (await svc.reports.store.get(f.storage_key))?.toString("utf8") ?? "";
      expect(await validateAvi(xml), `${f.user_id}: the AVI against its XSD`).toEqual({ valid: true });
      const aviso = parser.parse(xml).archivo.informe.aviso;
      expect(aviso.prioridad).toBe("2");
      expect(aviso.alerta.tipo_alerta).toBe("4107");
      expect(aviso.alerta.descripcion_alerta).toMatch(
        /^EL CLIENTE U-(OPERATED|DORMANT), .* COINCIDE CON LA ENTRADA LPB-T-000[12] .* DE LA LISTA MX-LPB VERSION LPB-2026-12-03, PUNTUACION [0-9.]+\. CONOCIDO POR LA REVISION DE LISTAS EL 2026-12-03\.$/,
      );
      expect(aviso.alerta.descripcion_alerta).not.toMatch(/ILICIT/);
      expect(aviso.operaciones_persona.detalle_operaciones).toBe("");
      // The client's monitored address is the account the aviso names.
      expect(aviso.operaciones_persona.persona_aviso.datos_cuenta_plataforma.cuenta_relacionada).toBe(
        (f.user_id === "u-dormant" ? DORMANT : OPERATED).toUpperCase(),
      );
    }
    const colombian = (await alertsOf()).find((a) => a.subject.userId === "u-colombian");
    expect(colombian?.deadline).toBeNull();
  });

  it("the filing calendar owes the two avisos by 10:00 on 4 December, Mexico City, and nothing for the Colombian", async () => {
    const res = await svc.app!.inject({
      url: `/v1/reports/calendar?projectId=${svc.project.id}&countryCode=MX&period=2026-12`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(res.statusCode, res.body).toBe(200);
    const urgent = (
      res.json().data as { filing: string; deadline: string; state: string; name: string }[]
    ).filter((f) => f.filing.startsWith("MX-URGENT:"));
    expect(urgent.map((f) => f.name.match(/user (u-\w+)/)?.[1]).sort()).toEqual(["u-dormant", "u-operated"]);
    for (const f of urgent) {
      expect(f.deadline).toBe("2026-12-04T16:00:00.000Z");
      expect(f.state).toBe("generated");
      expect(f.name).toMatch(/listed-person: on the mx-lpb list, entry LPB-T-000[12]/);
    }
  });

  it("screening again (the same LPB, an officer's run) records no second aviso and writes no second file", async () => {
    const run = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/screening/run`,
      headers: auth(svc.project.keys.admin),
    });
    expect(run.statusCode, run.body).toBe(202);
    expect(run.json().data).toEqual({ queued: 3 });
    expect(await screen(new Date(KNOWN.getTime() + 3600_000))).toMatchObject({ screened: 3, alerts: 0 });
    await writeAvisos();
    expect(await urgentFiles()).toHaveLength(2);
    const count = await db()
      .selectFrom("avisos")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("project_id", "=", svc.project.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });

  it("an officer screens one client now: that client alone; a client the project does not monitor is a 404", async () => {
    const one = (userId: string, key = svc.project.keys.officer) =>
      svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${svc.project.id}/screening/run`,
        headers: auth(key),
        payload: { userId },
      });
    const run = await one("u-dormant");
    expect(run.statusCode, run.body).toBe(202);
    expect(run.json().data).toEqual({ queued: 1 });
    expect(await screen(new Date(KNOWN.getTime() + 7200_000))).toMatchObject({ screened: 1, alerts: 0 });
    const stranger = await one("u-nobody");
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: "not_found", message: "Monitored client not found" });
    expect((await one("u-dormant", svc.project.keys.developer)).statusCode).toBe(403);
  });

  it("a developer key may not run the screening: 403", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/screening/run`,
      headers: auth(svc.project.keys.developer),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("Mexico: the officer's own 24-hour aviso (POST /projects/{id}/avisos)", () => {
  const raise = (body: Record<string, unknown>, key = svc.project.keys.officer) =>
    svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/avisos`,
      headers: auth(key),
      payload: body,
    });
  const NARRATIVE =
    "El cliente recibio tres depositos de montos apenas inferiores al umbral en una misma semana y los retiro el mismo dia.";
  let hash: string;
  let alertId: string;

  beforeAll(async () => {
    const transfer = await db()
      .selectFrom("monitored_transfers")
      .select("tx_hash")
      .where("project_id", "=", svc.project.id)
      .executeTakeFirstOrThrow();
    hash = transfer.tx_hash;
    alertId = ((await alertsOf()).find((a) => a.subject.userId === "u-dormant") as { id: string }).id;
  });

  it("each ground of the catalog in force today is taken: due 24 hours from now, with its source", async () => {
    const before = Date.now();
    for (const basis of ["behaviour", "adverse-information", "listed-person", "attempt"]) {
      const res = await raise({
        userId: basis === "behaviour" ? "u-operated" : "u-dormant",
        basis,
        narrative: `${NARRATIVE} (${basis})`,
        ...(basis === "behaviour" ? { txHashes: [hash] } : {}),
        ...(basis === "adverse-information" ? { alertIds: [alertId] } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
      const aviso = res.json().data;
      expect(aviso).toMatchObject({ basis, origin: "officer", countryCode: "MX", state: "pending" });
      expect(Date.parse(aviso.deadline) - Date.parse(aviso.knownAt)).toBe(DAY_MS);
      expect(Date.parse(aviso.knownAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(aviso.source).toMatch(/Art\. 18 fracción VI párrafo segundo/);
      if (basis === "attempt") expect(aviso.source).toMatch(/Reglamento de la LFPIORPI .* Art\. 7 Bis/);
    }
  });

  it("refused with the reason: a ground not in the catalog, another project's alert, a transaction not the client's, a client without an address", async () => {
    const basis = await raise({ userId: "u-dormant", basis: "hunch", narrative: NARRATIVE });
    expect(basis.statusCode).toBe(400);
    for (const ground of ["listed-person", "attempt", "behaviour", "adverse-information"])
      expect(basis.json().details[0].message).toContain(`${ground} (`);
    const alert = await raise({
      userId: "u-dormant",
      basis: "behaviour",
      narrative: NARRATIVE,
      alertIds: ["999999"],
    });
    expect(alert.json().details[0]).toEqual({
      path: "/alertIds",
      message: "not alerts of this project: 999999",
    });
    const tx = await raise({
      userId: "u-dormant",
      basis: "behaviour",
      narrative: NARRATIVE,
      txHashes: [hash],
    });
    expect(tx.json().details[0].message).toMatch(/not checked transactions of user u-dormant/);
    const user = await raise({ userId: "u-nobody", basis: "behaviour", narrative: NARRATIVE });
    expect(user.json().details[0].message).toMatch(
      /neither a monitored address nor exchange operations in this project/,
    );
    const developer = await raise(
      { userId: "u-dormant", basis: "behaviour", narrative: NARRATIVE },
      svc.project.keys.developer,
    );
    expect(developer.statusCode).toBe(403);
    expect(developer.json().message).toMatch(
      /needs a key of role officer or above; this key's role is developer/,
    );
  });

  it("the files: XSD-valid, the narrative as the alert's description, the transaction named as the aviso's operation", async () => {
    await writeAvisos();
    const avisos = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/avisos`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(avisos.statusCode, avisos.body).toBe(200);
    const officer = (
      avisos.json().data as { origin: string; state: string; basis: string; reference: string }[]
    ).filter((a) => a.origin === "officer");
    expect(officer.map((a) => a.state)).toEqual(["written", "written", "written", "written"]);
    const behaviour = officer.find((a) => a.basis === "behaviour") as { reference: string };
    const file = (await urgentFiles()).find((f) => f.path.includes(behaviour.reference));
    const xml = (await svc.reports.store.get(file?.storage_key as string))?.toString("utf8") ?? "";
    expect(await validateAvi(xml)).toEqual({ valid: true });
    const aviso = new XMLParser({ parseTagValue: false }).parse(xml).archivo.informe.aviso;
    expect(aviso.alerta.tipo_alerta).toBe("4114");
    expect(aviso.alerta.descripcion_alerta).toMatch(
      /^EL CLIENTE RECIBIO TRES DEPOSITOS DE MONTOS APENAS INFERIORES/,
    );
    const received =
      aviso.operaciones_persona.detalle_operaciones.operaciones_transferencia.transferencias_recibidas;
    expect(received.recepcion.hash_operacion).toBe(hash.toUpperCase());
  });

  it("marking an aviso's file filed with its folio closes the alerts it answers as reported", async () => {
    const list = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/avisos`,
      headers: auth(svc.project.keys.viewer),
    });
    const adverse = (list.json().data as { basis: string; origin: string; reference: string }[]).find(
      (a) => a.origin === "officer" && a.basis === "adverse-information",
    ) as { reference: string };
    const file = (await urgentFiles()).find((f) => f.path.includes(adverse.reference)) as { path: string };
    const filed = await svc.app!.inject({
      method: "POST",
      url: `/v1/reports/${encodeURIComponent(file.path)}/filed`,
      headers: auth(svc.project.keys.officer),
      payload: { folio: "2026-4471" },
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const alert = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts/${alertId}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(alert.json().data).toMatchObject({
      status: "closed",
      resolution: "reported",
      reference: "2026-4471",
    });
    expect(alert.json().data.history.at(-1).change).toMatchObject({
      event: "filing_filed",
      reference: "2026-4471",
    });
  });
});

describe("Mexico: alerts and filings agree (an alert closed as reported files its aviso, and the other way round)", () => {
  const SANCTIONED = "0x00000000000000000000000000000000000e5a01";
  const patch = (id: string, body: object) =>
    svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}/alerts/${id}`,
      headers: auth(svc.project.keys.officer),
      payload: body,
    });
  const reportOf = (pathPart: { reference?: string; txHash?: string }) => {
    let q = db()
      .selectFrom("reports")
      .select(["path", "status", "folio"])
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent");
    if (pathPart.reference) q = q.where("path", "like", `%.24h.${pathPart.reference}%`);
    if (pathPart.txHash) q = q.where("tx_hash", "=", pathPart.txHash);
    return q.executeTakeFirstOrThrow();
  };

  it("the listed client's alert closed as reported with a folio marks its aviso's file filed with that folio", async () => {
    const alert = (await alertsOf()).find((a) => a.subject.userId === "u-operated") as { id: string };
    const aviso = await db()
      .selectFrom("avisos")
      .select("reference")
      .where("project_id", "=", svc.project.id)
      .where("user_id", "=", "u-operated")
      .where("origin", "=", "screening")
      .executeTakeFirstOrThrow();
    expect(await reportOf({ reference: aviso.reference })).toMatchObject({ status: "draft", folio: null });
    const res = await patch(alert.id, { status: "closed", resolution: "reported", reference: "2026-5001" });
    expect(res.statusCode, res.body).toBe(200);
    const filed = await reportOf({ reference: aviso.reference });
    expect(filed).toMatchObject({ status: "filed", folio: "2026-5001" });
    expect(res.json().data.history.at(-1).change).toEqual({
      event: "filings_marked_filed",
      paths: [filed.path],
      skipped: [],
    });
    const calendar = await svc.app!.inject({
      url: `/v1/reports/calendar?projectId=${svc.project.id}&countryCode=MX&period=2026-12`,
      headers: auth(svc.project.keys.viewer),
    });
    const entry = (calendar.json().data as { filing: string; state: string }[]).find((f) =>
      f.filing.includes(aviso.reference),
    );
    expect(entry?.state).toBe("filed");
  });

  it("a transfer's 24-hour aviso: closing one of its alerts as reported files the aviso, and filing it closes the transfer's other alerts", async () => {
    await db()
      .insertInto("labels")
      .values({
        address: SANCTIONED,
        chain_id: 0,
        label: "OFAC SDN test",
        category: "sanctioned",
        source: "test",
      })
      .execute();
    const [tx] = await chain.block(new Date("2026-12-03T18:00:00Z"), [
      { from: SANCTIONED, to: OPERATED, value: 10n ** 15n },
    ]);
    const checker = new TransferChecker({
      db: db(),
      registry: svc.registry,
      profiles,
      clientListings: (client, read) =>
        clientListings(db(), screener, client, read, new Date("2026-12-03T18:00:05Z")),
    });
    while ((await checker.runOnce()) > 0) {}
    await writeAvisos();
    const law = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts?cause=law&limit=100`,
      headers: auth(svc.project.keys.viewer),
    });
    const waiting = (
      law.json().data as {
        id: string;
        causeKey: string;
        deadline: { filing: string } | null;
        status: string;
      }[]
    ).filter((a) => a.deadline?.filing === "MX-URGENT");
    // The sanctioned counterparty and the listed client: two rules, one aviso of the transfer.
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    expect(await reportOf({ txHash: tx as string })).toMatchObject({ status: "draft" });
    const [first, ...others] = waiting as [(typeof waiting)[number], ...typeof waiting];
    const res = await patch(first.id, { status: "closed", resolution: "reported", reference: "2026-5002" });
    expect(res.statusCode, res.body).toBe(200);
    expect(await reportOf({ txHash: tx as string })).toMatchObject({ status: "filed", folio: "2026-5002" });
    for (const other of others) {
      const read = await svc.app!.inject({
        url: `/v1/projects/${svc.project.id}/alerts/${other.id}`,
        headers: auth(svc.project.keys.viewer),
      });
      expect(read.json().data).toMatchObject({
        status: "closed",
        resolution: "reported",
        reference: "2026-5002",
      });
    }
  });

  it("a reference that is not a folio files the aviso without one; an alert with no filing files nothing", async () => {
    const [tx] = await chain.block(new Date("2026-12-03T19:00:00Z"), [
      { from: SANCTIONED, to: OPERATED, value: 2n * 10n ** 15n },
    ]);
    const checker = new TransferChecker({
      db: db(),
      registry: svc.registry,
      profiles,
      clientListings: (client, read) =>
        clientListings(db(), screener, client, read, new Date("2026-12-03T19:00:05Z")),
    });
    while ((await checker.runOnce()) > 0) {}
    await writeAvisos();
    const law = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts?cause=law&status=open&limit=100`,
      headers: auth(svc.project.keys.viewer),
    });
    const open = (law.json().data as { id: string; deadline: { filing: string } | null }[]).find(
      (a) => a.deadline?.filing === "MX-URGENT",
    ) as { id: string };
    const res = await patch(open.id, {
      status: "closed",
      resolution: "reported",
      reference: "acuse UIF del 4 de diciembre",
    });
    expect(res.statusCode, res.body).toBe(200);
    const file = await reportOf({ txHash: tx as string });
    expect(file).toMatchObject({ status: "filed", folio: null });
    expect(res.json().data.history.at(-1).change).toEqual({
      event: "filings_marked_filed",
      paths: [file.path],
      skipped: [],
    });
    // The Colombian's alert waits on no Mexican filing: closing it records nothing more.
    const colombian = (await alertsOf()).find((a) => a.subject.userId === "u-colombian") as { id: string };
    const closed = await patch(colombian.id, {
      status: "closed",
      resolution: "reported",
      reference: "SIREL-1",
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data.history.at(-1).change).toMatchObject({ resolution: "reported" });
  });
});
