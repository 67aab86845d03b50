// Mexico: the 24-hour aviso of a person on the UIF's Lista de Personas Bloqueadas who tried to operate and did not
// (Reglamento de la LFPIORPI Art. 7 Bis, DOF 27-03-2026: "aunque el acto u operación no se haya celebrado"; LFPIORPI
// Art. 18 fracción VI párrafo segundo; RCG Arts. 26 Bis 2 and 27 párrafo segundo from 30-11-2026), and of one who
// applied to become a client. The integrator screens the person with an `operation`; the real screening, the real
// writer of urgent avisos, profiles from an integrator on 127.0.0.1; each AVI checked against the official XSD.
// PGlite, or PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProfileReader } from "../../src/integrator/index.ts";
import { validateAvi } from "../../src/jurisdictions/mx/validate.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { UrgentAvisoWriter } from "../../src/reports/index.ts";
import { importPersonList } from "../../src/screening/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { mexican } from "./cases/profiles.ts";

const DAY_MS = 24 * 3600_000;
const WALLET = "0x00000000000000000000000000000000000a7001";

/** The prospect the integrator knows (registered, not yet a client): invented. */
const PROFILES: Record<string, object> = {
  "u-prospect": mexican({
    givenName: "Ramiro",
    paternalSurname: "Quintanilla",
    maternalSurname: "Sepúlveda",
  }),
};
const LISTED = { name: "Ramiro Quintanilla Sepúlveda", birthdate: "1990-01-02", nationality: "MX" };
const NOBODY = { name: "Evaristo Campuzano Lira", birthdate: "1985-03-04", nationality: "MX" };

let svc: TestService;
let integrator: http.Server;
let profiles: ProfileReader;
const db = () => svc.database.db;

const screen = (body: object) =>
  svc.app!.inject({
    method: "POST",
    url: "/v1/screening/persons",
    headers: auth(svc.project.keys.developer),
    payload: body,
  });

const writeAvisos = async () => {
  const writer = new UrgentAvisoWriter({ ...svc.reports, profiles });
  while ((await writer.runOnce()) > 0) {}
};

beforeAll(async () => {
  svc = await startTestService();
  integrator = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const profile = user ? PROFILES[decodeURIComponent(user)] : undefined;
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
      jurisdictions: ["MX"],
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
  await db()
    .transaction()
    .execute((trx) =>
      importPersonList(
        trx,
        {
          kind: "mx-lpb",
          version: "LPB-2026-11-20",
          listDate: "2026-11-20",
          source: "test",
          projectId: svc.project.id,
        },
        (async function* () {
          yield {
            entryId: "LPB-A-0001",
            type: "person" as const,
            names: ["QUINTANILLA SEPULVEDA RAMIRO"],
            dates: ["1990-01-02"],
            countries: [],
            identifiers: [],
            programs: ["LPB"],
          };
        })(),
      ),
    );
});
afterAll(async () => {
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
  await svc?.close();
});

interface Outcome {
  userId: string;
  alertIds: string[];
  avisos: { id: string; countryCode: string; basis: string; reference: string; deadline: string }[];
}

describe("Mexico: an attempt by a person on the LPB (Reglamento Art. 7 Bis)", () => {
  let attempt: Outcome;

  it("a clear person's attempt records nothing; the listed prospect's gives an `attempt` alert and an aviso due 24 hours from now", async () => {
    const before = Date.now();
    const res = await screen({
      persons: [LISTED],
      operation: {
        kind: "attempt",
        userId: "u-prospect",
        amount: "2500.50",
        asset: "USDT",
        at: "2026-11-28T21:30:00Z",
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().data.results[0];
    expect(result.verdict).toBe("match");
    attempt = result.operation;
    expect(attempt.userId).toBe("u-prospect");
    expect(attempt.alertIds).toHaveLength(1);
    expect(attempt.avisos).toHaveLength(1);
    expect(attempt.avisos[0]).toMatchObject({ countryCode: "MX", basis: "attempt" });
    const deadline = Date.parse(attempt.avisos[0]?.deadline as string);
    expect(deadline - before).toBeGreaterThanOrEqual(DAY_MS - 1000);
    expect(deadline - Date.now()).toBeLessThanOrEqual(DAY_MS);

    const clear = await screen({ persons: [NOBODY], operation: { kind: "attempt" } });
    expect(clear.statusCode, clear.body).toBe(200);
    expect(clear.json().data.results[0].verdict).toBe("clear");
    expect(clear.json().data.results[0].operation).toMatchObject({ alertIds: [], avisos: [] });

    const alerts = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts?cause=attempt`,
      headers: auth(svc.project.keys.viewer),
    });
    const [alert] = alerts.json().data;
    expect(alerts.json().data).toHaveLength(1);
    expect(alert).toMatchObject({
      id: attempt.alertIds[0],
      cause: "attempt",
      causeKey: "mx-lpb:LPB-A-0001",
      level: "match",
      subject: { chainId: 0, address: "", userId: "u-prospect" },
    });
    expect(alert.deadline.filing).toBe("MX-URGENT");
    expect(alert.deadline.source).toMatch(/Reglamento de la LFPIORPI .* Art\. 7 Bis/);
    expect(alert.evidence.attempts).toEqual([
      {
        kind: "attempt",
        amount: "2500.50",
        asset: "USDT",
        at: "2026-11-28T21:30:00.000Z",
        screenedAt: expect.any(String),
      },
    ]);
  });

  it("the same attempt told twice records one aviso; the file is a prioridad-2 AVI naming the attempt, valid against the XSD", async () => {
    const again = await screen({
      persons: [LISTED],
      operation: { kind: "attempt", userId: "u-prospect", at: "2026-11-28T21:30:00Z" },
    });
    expect(again.json().data.results[0].operation.avisos[0].id).toBe(attempt.avisos[0]?.id);
    await writeAvisos();
    const file = await db()
      .selectFrom("reports")
      .select(["storage_key", "path"])
      .where("project_id", "=", svc.project.id)
      .where("kind", "=", "urgent")
      .executeTakeFirstOrThrow();
    expect(file.path).toContain(`u-prospect.24h.${attempt.avisos[0]?.reference}.xml`);
    const xml = (await svc.reports.store.get(file.storage_key))?.toString("utf8") ?? "";
    expect(await validateAvi(xml)).toEqual({ valid: true });
    const aviso = new XMLParser({ parseTagValue: false }).parse(xml).archivo.informe.aviso;
    expect(aviso.prioridad).toBe("2");
    expect(aviso.alerta.tipo_alerta).toBe("4107");
    // 21:30 UTC on 28 November is 15:30 in Mexico City.
    expect(aviso.alerta.descripcion_alerta).toMatch(
      /^RAMIRO QUINTANILLA SEPULVEDA INTENTO UNA OPERACION QUE NO SE CELEBRO POR 2500\.50 USDT EL 2026-11-28 15:30 HORA LOCAL Y COINCIDE CON LA ENTRADA LPB-A-0001 QUINTANILLA SEPULVEDA RAMIRO DE LA LISTA MX-LPB/,
    );
    expect(aviso.operaciones_persona.detalle_operaciones).toBe("");
  });

  it("a prospect the integrator does not know: the aviso is recorded under the prospect's id from the data given, and its file is refused naming what the AVI lacks", async () => {
    const res = await screen({
      persons: [{ ...LISTED, name: "RAMIRO QUINTANILLA SEPULVEDA" }],
      operation: { kind: "attempt" },
    });
    const outcome: Outcome = res.json().data.results[0].operation;
    expect(outcome.userId).toMatch(/^prospect-[0-9a-f]{12}$/);
    expect(outcome.avisos.map((a) => a.basis)).toEqual(["attempt"]);
    const prospect = await db()
      .selectFrom("avisos")
      .select("prospect")
      .where("id", "=", outcome.avisos[0]?.id as string)
      .executeTakeFirstOrThrow();
    expect(prospect.prospect).toEqual({
      givenName: "RAMIRO",
      paternalSurname: "QUINTANILLA",
      maternalSurname: "SEPULVEDA",
      birthdate: "1990-01-02",
      nationality: "MX",
      mexico: {},
    });
    await writeAvisos();
    const failures = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/avisos`,
      headers: auth(svc.project.keys.viewer),
    });
    const mine = (failures.json().data as { userId: string; state: string }[]).find(
      (a) => a.userId === outcome.userId,
    );
    expect(mine?.state).not.toBe("written");
    const failure = await db()
      .selectFrom("report_failures")
      .selectAll()
      .where("project_id", "=", svc.project.id)
      .execute();
    expect(failure).toEqual([
      expect.objectContaining({
        user_id: outcome.userId,
        code: "profile_incomplete",
        field: "mexico.actividadEconomica",
      }),
    ]);
  });

  it("an onboarding by the listed person owes the listed person's aviso; a userId with two persons is refused", async () => {
    const res = await screen({
      persons: [LISTED],
      operation: { kind: "onboarding", userId: "u-prospect", at: "2026-11-29T01:00:00Z" },
    });
    expect(res.json().data.results[0].operation.avisos.map((a: { basis: string }) => a.basis)).toEqual([
      "listed-person",
    ]);
    const two = await screen({ persons: [LISTED, NOBODY], operation: { kind: "attempt", userId: "u-x" } });
    expect(two.statusCode).toBe(400);
    expect(two.json().details[0].path).toBe("/operation/userId");
  });

  it("POST /screening: the attempt's alert is about the wallet the person named", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: "/v1/screening",
      headers: auth(svc.project.keys.developer),
      payload: {
        person: LISTED,
        addresses: [{ address: WALLET, chainId: "31337" }],
        operation: { kind: "attempt", userId: "u-prospect", at: "2026-11-29T02:00:00Z" },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const outcome: Outcome = res.json().data.person.operation;
    const alert = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts/${outcome.alertIds[0]}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(alert.json().data.subject).toMatchObject({ chainId: 31337, address: WALLET });
  });
});

describe("client_jurisdiction.alsoByNationality", () => {
  it("names only jurisdictions the project enables: a 400 says which and how to fix it", async () => {
    const res = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}`,
      headers: auth(svc.project.keys.admin),
      payload: { client_jurisdiction: { alsoByNationality: ["CO"] } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toEqual({
      path: "/client_jurisdiction/alsoByNationality",
      message:
        "names CO, which the project does not enable (its jurisdictions: MX): enable it in `jurisdictions` or leave it out",
    });
    const ok = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}`,
      headers: auth(svc.project.keys.admin),
      payload: { jurisdictions: ["MX", "CO"], client_jurisdiction: { alsoByNationality: ["MX"] } },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.client_jurisdiction).toEqual({ alsoByNationality: ["MX"] });
  });
});
