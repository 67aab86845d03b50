// Reviewing a person match (docs/api.md, "Match review"): monitored clients screened by the service's own flow
// (registered, their profiles read from a real integrator on 127.0.0.1, screened against the project's LPB as it is
// imported, version after version), each match seen side by side, confirmed or discarded with a reason; a discarded
// pair raises nothing while the list entry and the client's person stay as reviewed, and alerts again, naming the
// earlier decision, when either changes; the evidence pack in Spanish and English names who decided. PGlite, or
// PostgreSQL with VIGIA_TEST_DB=postgres.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPersonListFiles } from "../../src/ingest/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { clientListings, profileRead, rescreenClients, Screener } from "../../src/screening/index.ts";
import { mexican } from "../jurisdictions/cases/profiles.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 31337;
const HEAD =
  "id,tipo,nombre,apellido_paterno,apellido_materno,alias,fecha_nacimiento,rfc,curp,pasaporte,nacionalidad,fecha_alta,fundamento";
/** Invented entries (as test/fixtures/person-lists/mx_lpb_invented.csv): nobody real. */
const FICTICIO =
  'LPB-0001,fisica,Ficticio Ejemplo,PRUEBALOPEZ,INVENTADO,El Ficticio|F. Pruebalopez,1978-04-12,PUIF780412AB1,PUIF780412HDFRNC09,G99990001,MX,2026-01-20,"Art. 115 LIC; acuerdo de prueba, inventado"';
const FICTICIO_NEW_ALIAS =
  'LPB-0001,fisica,Ficticio Ejemplo,PRUEBALOPEZ,INVENTADO,El Ficticio|F. Pruebalopez|El Inventado,1978-04-12,PUIF780412AB1,PUIF780412HDFRNC09,G99990001,MX,2026-01-20,"Art. 115 LIC; acuerdo de prueba, inventado"';
const COMERCIALIZADORA =
  'LPB-0002,moral,"COMERCIALIZADORA DE PRUEBA INVENTADA, S.A. DE C.V.",,,CPI Inventada,2015-09-01,CPI150901XY2,,,MX,2026-02-03,Persona moral inventada para pruebas';
const DEMOSTRACION = "LPB-0003,fisica,Persona,DEMOSTRACION,,,1990,,,,CO|MX,2026-03-10,";

const PROFILES: Record<string, object> = {
  // The listed person himself: name, birthdate, RFC and CURP as the entry's.
  "client-a": mexican({
    givenName: "Ficticio Ejemplo",
    paternalSurname: "Pruebalopez",
    maternalSurname: "Inventado",
    birthdate: "1978-04-12",
    mexico: { rfc: "PUIF780412AB1", curp: "PUIF780412HDFRNC09", actividadEconomica: 8250100 },
  }),
  // A namesake of LPB-0003, born in the entry's year.
  "client-b": mexican({
    givenName: "Persona",
    paternalSurname: "Demostración",
    maternalSurname: undefined,
    birthdate: "1990-05-05",
    mexico: { actividadEconomica: 8250100 },
  }),
  // The name of LPB-0001 and nothing else to compare.
  "client-c": mexican({
    givenName: "Ficticio Ejemplo",
    paternalSurname: "Pruebalopez",
    maternalSurname: "Inventado",
    birthdate: undefined,
    nationality: undefined,
    mexico: { actividadEconomica: 8250100 },
  }),
};
const ADDRESSES: Record<string, string> = {
  "client-a": "0x00000000000000000000000000000000000c0001",
  "client-b": "0x00000000000000000000000000000000000c0002",
  "client-c": "0x00000000000000000000000000000000000c0003",
};

let svc: TestService;
let integrator: http.Server;
let screener: Screener;
let reader: ProfileReader;
let dir: string;
let day = 15;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "vigia-match-review-"));
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  integrator = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const profile = user ? PROFILES[decodeURIComponent(user)] : undefined;
    if (!profile) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: { integration_url: url, jurisdictions: ["MX"] },
  });
  expect(patch.statusCode, patch.body).toBe(200);
  for (const [user, address] of Object.entries(ADDRESSES)) {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address, chainId: CHAIN, foreign_user_id: user },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  screener = new Screener(svc.database.db);
  reader = new ProfileReader(
    { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
    { ttlMs: 0, failureBackoffMs: 0 },
  );
});
afterAll(async () => {
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The project's LPB, as the UIF delivers it: a new version each time, with these entries. */
async function importLpb(...rows: string[]) {
  day += 1;
  const file = path.join(dir, `lpb-${day}.csv`);
  writeFileSync(
    file,
    [`# version: LPB-PRUEBA-2026-07-${day}`, `# fecha: 2026-07-${day}`, HEAD, ...rows, ""].join("\n"),
  );
  const run = await importPersonListFiles(svc.database.db, "mx-lpb", [file], { projectId: svc.project.id });
  expect(run.status).toBe("imported");
}

/** The screening worker's run: the queued clients from their profiles, the others from what was kept. */
const screenAll = () =>
  rescreenClients(
    svc.database.db,
    screener,
    100,
    () => new Date(),
    (p, u) => reader.read(p, u),
  );

type Alert = {
  id: string;
  status: string;
  resolution: string | null;
  causeKey: string;
  reason: string;
  subject: { userId: string };
};

async function alertsOf(user: string): Promise<Alert[]> {
  const res = await svc.app!.inject({
    url: `/v1/projects/${svc.project.id}/alerts?cause=person_match&limit=100`,
    headers: auth(svc.project.keys.viewer),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Alert[]).filter((a) => a.subject.userId === user).sort((a, b) => +a.id - +b.id);
}

const api = (method: "GET" | "POST", url: string, key: string, payload?: object, lang = "es-MX,es;q=0.9") =>
  svc.app!.inject({
    method,
    url: `/v1/projects/${svc.project.id}${url}`,
    headers: { ...auth(key), "accept-language": lang },
    ...(payload ? { payload } : {}),
  });

async function matchOf(alertId: string, lang = "es-MX") {
  const res = await api("GET", `/alerts/${alertId}/match`, svc.project.keys.viewer, undefined, lang);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const review = (alertId: string, payload: object, key = svc.project.keys.officer) =>
  api("POST", `/alerts/${alertId}/match/review`, key, payload);

describe("reviewing a person match", () => {
  let a: Alert;
  let b: Alert;
  let c: Alert;

  it("the project's LPB imported, the three clients are screened and each raises its person match", async () => {
    await importLpb(FICTICIO, DEMOSTRACION);
    const run = await screenAll();
    expect(run).toMatchObject({ screened: 3, alerts: 3, failed: [] });
    [a] = (await alertsOf("client-a")) as [Alert];
    [b] = (await alertsOf("client-b")) as [Alert];
    [c] = (await alertsOf("client-c")) as [Alert];
    expect(a).toMatchObject({ causeKey: "mx-lpb:LPB-0001", status: "open" });
    expect(b).toMatchObject({ causeKey: "mx-lpb:LPB-0003", status: "open" });
    expect(c).toMatchObject({ causeKey: "mx-lpb:LPB-0001", status: "open" });
  });

  it("shows the client and the list entry side by side, the score and why in Spanish", async () => {
    const res = await api("GET", `/alerts/${a.id}/match`, svc.project.keys.viewer);
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json().data;
    expect(m).toMatchObject({
      alertId: a.id,
      status: "open",
      level: "match",
      client: {
        userId: "client-a",
        role: "client",
        roleText: "el cliente",
        names: ["Ficticio Ejemplo Pruebalopez Inventado"],
        nameAsRead: null,
        birthDate: "1978-04-12",
        nationality: "MX",
        identifiers: expect.arrayContaining([
          expect.objectContaining({ kind: "rfc", value: "PUIF780412AB1" }),
          expect.objectContaining({ kind: "curp", value: "PUIF780412HDFRNC09" }),
        ]),
        profileChanged: false,
      },
      entry: {
        list: "mx-lpb",
        listVersion: "LPB-PRUEBA-2026-07-16",
        alertedVersion: "LPB-PRUEBA-2026-07-16",
        listDate: "2026-07-16",
        source: "alerted",
        entryId: "LPB-0001",
        names: expect.arrayContaining(["El Ficticio"]),
        birthDate: "1978-04-12",
        nationality: "MX",
        identifiers: expect.arrayContaining([expect.objectContaining({ value: "PUIF780412AB1" })]),
        programme: "LPB",
        remarks: expect.stringContaining("Art. 115 LIC"),
      },
      score: 1,
    });
    expect(m.review).toBeUndefined();
    expect(m.why[0]).toMatch(
      /^Puntaje 1\.000 de 1 en la lista mx-lpb, versión LPB-PRUEBA-2026-07-16: una coincidencia/,
    );
    expect(m.why).toContain("La fecha de nacimiento 1978-04-12 coincide con la de la lista (1978-04-12).");
    expect(m.why).toContain(
      "El identificador RFC PUIF780412AB1 es el de la entrada: confirma la coincidencia.",
    );
    expect(res.headers["content-language"]).toBe("es");
    // In English when asked so.
    const en = (await api("GET", `/alerts/${a.id}/match`, svc.project.keys.viewer, undefined, "en-US")).json()
      .data;
    expect(en.client.roleText).toBe("the client");
    expect(en.why).toContain("The date of birth 1978-04-12 agrees with the list's 1978-04-12.");
    // The namesake: the year agrees, the day is not known to the list.
    const mb = (await api("GET", `/alerts/${b.id}/match`, svc.project.keys.viewer)).json().data;
    expect(mb.client).toMatchObject({ names: ["Persona Demostración"], birthDate: "1990-05-05" });
    expect(mb.entry).toMatchObject({
      entryId: "LPB-0003",
      birthDates: ["1990"],
      nationalities: ["CO", "MX"],
    });
    expect(mb.why.join(" ")).toMatch(/1990-05-05/);
  });

  it("only a person match has a match to review", async () => {
    const none = await api("GET", "/alerts/999999/match", svc.project.keys.viewer);
    expect(none.statusCode).toBe(404);
    const other = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts/${a.id}/match`,
      headers: auth(svc.other.keys.admin),
    });
    expect(other.statusCode).toBe(403);
  });

  it("a viewer may not decide, and a decision needs its reason", async () => {
    const viewer = await review(
      a.id,
      { decision: "confirm", reason: "Same RFC and CURP" },
      svc.project.keys.viewer,
    );
    expect(viewer.statusCode).toBe(403);
    const developer = await review(
      a.id,
      { decision: "confirm", reason: "Same RFC and CURP" },
      svc.project.keys.developer,
    );
    expect(developer.statusCode).toBe(403);
    const missing = await review(a.id, { decision: "confirm" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([expect.objectContaining({ path: "/reason" })]);
    const blank = await review(a.id, { decision: "confirm", reason: "    " });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details).toEqual([expect.objectContaining({ path: "/reason" })]);
    const long = await review(a.id, { decision: "confirm", reason: "x".repeat(2001) });
    expect(long.statusCode).toBe(400);
    const wrong = await review(a.id, { decision: "maybe", reason: "not sure" });
    expect(wrong.statusCode).toBe(400);
    expect((await alertsOf("client-a"))[0]?.status).toBe("open");
  });

  it("confirming escalates the alert, keeps the reason and who decided in its history and the audit", async () => {
    const res = await review(a.id, {
      decision: "confirm",
      reason: "Mismo RFC y CURP que la entrada de la LPB",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      status: "escalated",
      review: {
        decision: "confirm",
        decisionText: "Confirmada: el cliente es la persona listada",
        reason: "Mismo RFC y CURP que la entrada de la LPB",
        by: expect.stringMatching(/^key:\d+$/),
        byName: "La clave «officer»",
      },
    });
    const alert = (await api("GET", `/alerts/${a.id}`, svc.project.keys.viewer)).json().data;
    expect(alert.status).toBe("escalated");
    expect(alert.history.at(-1)).toMatchObject({
      actor: expect.stringMatching(/^key:\d+$/),
      change: {
        event: "match_reviewed",
        decision: "confirm",
        note: "Mismo RFC y CURP que la entrada de la LPB",
        status: { from: "open", to: "escalated" },
      },
    });
    expect(alert.historyAudit.verified).toBe(true);
  });

  it("discarding closes the alert as a false positive; a closed alert takes no second decision", async () => {
    for (const [alert, reason] of [
      [b, "Homónimo: nació en otra fecha y su CURP no es de la lista"],
      [c, "Homónimo sin más datos: el expediente muestra a otra persona"],
    ] as const) {
      const res = await review(alert.id, { decision: "discard", reason });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ status: "closed", review: { decision: "discard", reason } });
      const [after] = await alertsOf(alert.subject.userId);
      expect(after).toMatchObject({ status: "closed", resolution: "false_positive" });
    }
    const again = await review(b.id, { decision: "confirm", reason: "changed my mind" });
    expect(again.statusCode).toBe(409);
  });

  it("a discarded namesake is no list the client is a match on for the transfer checker; a confirmed one is", async () => {
    const listings = (user: string) =>
      clientListings(
        svc.database.db,
        screener,
        {
          projectId: svc.project.id,
          userId: user,
          chainId: CHAIN,
          address: ADDRESSES[user]!,
          addressId: null,
        },
        async () => ({ ok: false, reason: "not read: the client was screened already" }),
        new Date(),
      );
    expect(await listings("client-a")).toEqual({ matchedLists: ["mx-lpb"] });
    expect(await listings("client-b")).toEqual({ matchedLists: [] });
    expect(await listings("client-c")).toEqual({ matchedLists: [] });
  });

  it("a discarded pair raises nothing while the entry and the person stay as reviewed", async () => {
    // LPB-0003 leaves the list, then comes back unchanged: found again, it would be news to the screening.
    await importLpb(FICTICIO, COMERCIALIZADORA);
    expect(await screenAll()).toMatchObject({ screened: 3, alerts: 0, failed: [] });
    await importLpb(FICTICIO, COMERCIALIZADORA, DEMOSTRACION);
    expect(await screenAll()).toMatchObject({ screened: 3, alerts: 0, failed: [] });
    expect((await alertsOf("client-b")).map((x) => x.id)).toEqual([b.id]);
    // The confirmed pair: one alert, still escalated.
    expect((await alertsOf("client-a")).map((x) => [x.id, x.status])).toEqual([[a.id, "escalated"]]);
    expect((await alertsOf("client-c")).map((x) => x.id)).toEqual([c.id]);
  });

  it("a changed profile alerts again, naming the earlier discard", async () => {
    // The client's birthdate corrected: still born in 1990, still a namesake to decide on.
    const profile = mexican({
      givenName: "Persona",
      paternalSurname: "Demostración",
      maternalSurname: undefined,
      birthdate: "1990-06-07",
      mexico: { actividadEconomica: 8250100 },
    });
    PROFILES["client-b"] = profile;
    const read = await reader.read(svc.project.id, "client-b");
    expect(read.ok).toBe(true);
    const again = await profileRead(
      svc.database.db,
      screener,
      {
        projectId: svc.project.id,
        userId: "client-b",
        chainId: CHAIN,
        address: ADDRESSES["client-b"]!,
        addressId: null,
      },
      (read as { ok: true; profile: never }).profile,
      new Date(),
    );
    expect(again?.alerts).toBe(1);
    const [first, second, ...more] = await alertsOf("client-b");
    expect(more).toEqual([]);
    expect(first?.id).toBe(b.id);
    expect(second).toMatchObject({ status: "open", causeKey: "mx-lpb:LPB-0003" });
    expect(second?.reason).toMatch(
      /It was discarded on alert \d+ .*since then the client's profile changed\./,
    );
    const m = await matchOf(second?.id as string);
    expect(m.review).toBeUndefined();
    expect(m.client.birthDate).toBe("1990-06-07");
    expect(m.earlierReview).toMatchObject({
      decision: "discard",
      alertId: b.id,
      changed: ["profile"],
      reason: "Homónimo: nació en otra fecha y su CURP no es de la lista",
    });
    expect(m.earlierReview.text).toMatch(
      new RegExp(
        `^Descartada antes, en la alerta ${b.id}, por La clave «officer» \\(.*\\): «Homónimo: .*». Desde entonces cambió el perfil del cliente\\.$`,
      ),
    );
    // Screened again unchanged: nothing more.
    expect(
      await profileRead(
        svc.database.db,
        screener,
        {
          projectId: svc.project.id,
          userId: "client-b",
          chainId: CHAIN,
          address: ADDRESSES["client-b"]!,
          addressId: null,
        },
        (read as { ok: true; profile: never }).profile,
        new Date(),
      ),
    ).toBeUndefined();
  });

  it("a new list version that changes the entry alerts the discarded pair again; the confirmed one is not duplicated", async () => {
    await importLpb(FICTICIO_NEW_ALIAS, COMERCIALIZADORA, DEMOSTRACION);
    const run = await screenAll();
    expect(run.failed).toEqual([]);
    const cs = await alertsOf("client-c");
    expect(cs.map((x) => x.status)).toEqual(["closed", "open"]);
    expect(cs[1]?.reason).toMatch(/It was discarded on alert \d+ .*since then the list entry changed\./);
    const m = await matchOf(cs[1]?.id as string);
    expect(m.entry.names).toContain("El Inventado");
    expect(m.earlierReview).toMatchObject({ decision: "discard", alertId: c.id, changed: ["entry"] });
    // The confirmed client: the same escalated alert, which names the change in its history.
    const as = await alertsOf("client-a");
    expect(as.map((x) => [x.id, x.status])).toEqual([[a.id, "escalated"]]);
    const history = (await api("GET", `/alerts/${a.id}`, svc.project.keys.viewer)).json().data.history;
    expect(history.at(-1).change).toMatchObject({
      event: "evidence_added",
      earlierReview: { decision: "confirm", changed: ["entry"] },
    });
    // The namesake decided on before the change of LPB-0001 is untouched; everything screened again stays quiet.
    expect((await alertsOf("client-b")).length).toBe(2);
    await importLpb(FICTICIO_NEW_ALIAS, DEMOSTRACION);
    expect(await screenAll()).toMatchObject({ alerts: 0, failed: [] });
  });

  it("the evidence pack of a reviewed match, in Spanish and in English, names who decided", async () => {
    const url = `/alerts/${b.id}/evidence`;
    const md = await api("GET", `${url}?format=md`, svc.project.keys.viewer);
    expect(md.statusCode).toBe(200);
    expect(md.body).toContain(`# Evidencia de la alerta ${b.id}`);
    expect(md.body).toContain("## El cliente y la entrada de la lista, lado a lado");
    expect(md.body).toMatch(/\| Nombres \| Persona Demostración \| Persona DEMOSTRACION \|/);
    expect(md.body).toContain("### Por qué se encontraron parecidos");
    expect(md.body).toMatch(
      /Descartada: un homónimo, no la persona listada, por La clave «officer», .* \(UTC\): «Homónimo: nació en otra fecha/,
    );
    expect(md.body).toContain("## Historial de atención");
    expect(md.body).toMatch(/\| La clave «officer» \| La clave «officer» .*Homónimo/);
    expect(md.body).not.toMatch(/Evidence of alert|Triage history|Lists of persons/);
    const en = await api("GET", `${url}?format=md`, svc.project.keys.viewer, undefined, "en");
    expect(en.body).toContain(`# Evidence of alert ${b.id}`);
    expect(en.body).toContain("## The client and the list entry, side by side");
    expect(en.body).toMatch(/Discarded: a namesake, not the listed person, by The key “officer”/);
    // JSON: the same, as data, in the language asked; the same bytes for the same alert and language.
    const json = await api("GET", `${url}?format=json`, svc.project.keys.viewer);
    const pack = json.json();
    expect(pack).toMatchObject({
      lang: "es",
      alert: { id: b.id, statusText: "Cerrada", resolution: "false_positive" },
      match: {
        client: { names: ["Persona Demostración"] },
        entry: { entryId: "LPB-0003" },
        review: { decision: "discard", byName: "La clave «officer»" },
      },
    });
    const reviewed = pack.history.find(
      (h: { change: { event?: string } }) => h.change.event === "match_reviewed",
    );
    expect(reviewed).toMatchObject({
      by: "La clave «officer»",
      text: expect.stringMatching(
        /^La clave «officer» descartó la coincidencia con la entrada LPB-0003 de la lista \S+, cerró la alerta como falso positivo; motivo: «Homónimo[^»]*»\.$/,
      ),
    });
    // The pack's reason is written in its language from the evidence; the stored one stays as raised.
    expect(pack.alert.reasonText).toMatch(
      /^[^,]+, cliente \S+, es (un candidato a revisar|una coincidencia) de /,
    );
    expect(pack.alert.reason).toMatch(/ is (a candidate to review|a match) for /);
    const again = await api("GET", `${url}?format=json`, svc.project.keys.viewer);
    expect(again.body).toBe(json.body);
    const enJson = (await api("GET", `${url}?format=json`, svc.project.keys.viewer, undefined, "en")).json();
    expect(enJson).toMatchObject({ lang: "en", match: { review: { byName: "The key “officer”" } } });
    const enReviewed = enJson.history.find(
      (h: { change: { event?: string } }) => h.change.event === "match_reviewed",
    );
    expect(enReviewed.text).toMatch(
      /^The key “officer” discarded the match with entry LPB-0003 of the list \S+, closed the alert as a false positive; reason: “Homónimo[^”]*”\.$/,
    );
  });
});
