// The officer's inbox across all alerts, the history in words, the case per client and the wallet report made from
// a fresh analysis (docs/api.md, "Alerts", "Case per client", "Wallet background report"). Alerts come from real
// flows: transfers written as the indexer writes them and checked by the real checker, with profiles read from a real
// integrator on 127.0.0.1; a person match from OFAC's list (a fixture) screened by the real screener. People are
// rows of the users table as their room stores them. PGlite, or PostgreSQL with VIGIA_TEST_DB=postgres.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVM_CODEC } from "../../src/chains/address/index.ts";
import { importPersonListFiles } from "../../src/ingest/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { clientListings, Screener } from "../../src/screening/index.ts";
import { colombian } from "../jurisdictions/cases/profiles.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { MonitoredChain, type NativeTransfer } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/person-lists");
const CHAIN = 31337;
const DAY = "2026-03-10";
const T0 = Date.parse(`${DAY}T10:00:00Z`) / 1000;
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const SANCTIONED = addr(0x5a);
const ETH = 10n ** 18n;
const HOUR = 3_600_000;
const BULK = 60; // addresses of the bulk client, two alerts each: 120 alerts
const REPORTED = addr(0x7e); // the wallet report's address

const mexican = (given: string, curp: string) => ({
  givenName: given,
  paternalSurname: "LOPEZ",
  maternalSurname: "RUIZ",
  birthdate: "1990-01-02",
  nationality: "MX",
  address: { country: "MX", colonia: "Centro", street: "Madero", exteriorNumber: "5", postalCode: "06000" },
  mexico: {
    curp,
    actividadEconomica: 6120001,
    documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1" },
  },
});
const profiles: Record<string, unknown> = {
  mario: mexican("MARIO", "LORM900102HDFPZR01"),
  bulk: mexican("BRUNO", "LORB900102HDFPZR02"),
  // On OFAC's SDN list (entry 4107 of the fixture), written as a client record would carry him.
  listed: colombian({
    givenName: "Gilberto José",
    paternalSurname: "Rodríguez",
    maternalSurname: "Orejuela",
    birthdate: "1939-01-31",
  }),
};

let clock = Date.parse("2026-03-10T12:00:00Z");
let svc: TestService;
let integrator: http.Server;
let chain: MonitoredChain;
let checker: TransferChecker;
const people: Record<"maria" | "juan" | "gone" | "stranger", number> = {
  maria: 0,
  juan: 0,
  gone: 0,
  stranger: 0,
};
const index = (transfers: NativeTransfer[]) =>
  chain.block(new Date((T0 + (chain.head + 1) * 12) * 1000), transfers);

function api(method: "GET" | "PATCH" | "POST", url: string, key: string, payload?: unknown, lang?: string) {
  return svc.app!.inject({
    method,
    url,
    headers: { ...auth(key), ...(lang ? { "accept-language": lang } : {}) },
    ...(payload ? { payload } : {}),
  });
}
const base = () => `/v1/projects/${svc.project.id}/alerts`;
const checkAll = async () => {
  while ((await checker.runOnce()) > 0);
};
async function register(address: string, user: string) {
  const res = await api("POST", `/v1/projects/${svc.project.id}/addresses`, svc.project.keys.developer, {
    address,
    chainId: CHAIN,
    foreign_user_id: user,
  });
  expect(res.statusCode, res.body).toBe(201);
}
async function addPerson(projectId: number, email: string, name: string, role: string, disabled = false) {
  const row = await svc.database.db
    .insertInto("users")
    .values({
      project_id: projectId,
      email,
      display_name: name,
      role: role as "officer",
      ...(disabled ? { disabled_at: new Date() } : {}),
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

interface Alert {
  id: string;
  subject: { address: string; userId: string | null };
  cause: string;
  causeKey: string;
  level: string;
  status: string;
  assignee: string | null;
  assigneeUser: { id: number; displayName: string } | null;
  linkedAlertIds: string[];
  deadline: { at: string; overdue: boolean; filing: string; timeZone: string } | null;
  history?: { actor: string; change: Record<string, unknown>; text: string }[];
}
interface Page {
  data: Alert[];
  total: number;
  overdue: number;
}
async function page(query = ""): Promise<Page> {
  const res = await api("GET", `${base()}${query}`, svc.project.keys.viewer);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function one(id: string, lang = "es-MX,es;q=0.9"): Promise<Alert> {
  const res = await api("GET", `${base()}/${id}`, svc.project.keys.viewer, undefined, lang);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const triage = (id: string, body: unknown) => api("PATCH", `${base()}/${id}`, svc.project.keys.officer, body);

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
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    service: { clock: () => clock },
  });
  const db = svc.database.db;
  chain = new MonitoredChain(db, CHAIN);
  await db
    .insertInto("prices")
    .values({ chain_id: CHAIN, token: "native", day: DAY, price_usd: "3000" })
    .execute();
  await db.insertInto("fx_rates").values({ day: "2026-03-09", currency: "MXN", per_usd: "20" }).execute();
  await labelSanctioned(db, SANCTIONED);
  const patch = await api("PATCH", `/v1/projects/${svc.project.id}`, svc.project.keys.admin, {
    integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
    jurisdictions: ["MX", "CO"],
  });
  expect(patch.statusCode, patch.body).toBe(200);
  await importPersonListFiles(db, "ofac-sdn", [
    path.join(FIXTURES, "ofac-csv/sdn.csv"),
    path.join(FIXTURES, "ofac-csv/alt.csv"),
  ]);
  const screener = new Screener(db);
  checker = new TransferChecker({
    db,
    registry: {
      get: (id: number) => (id === CHAIN ? { id, currency_symbol: "ETH", currency_decimals: 18 } : undefined),
      codec: () => EVM_CODEC,
    } as never,
    profiles: new ProfileReader({ ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) }),
    clientListings: (client, read) => clientListings(db, screener, client, read, new Date(clock)),
    slots: 1,
    now: () => clock,
  });
  await index([]);
  await register(addr(5), "mario");
  await register(addr(6), "listed");
  for (let i = 0; i < BULK; i++) await register(addr(0x1000 + i), "bulk");
  people.maria = await addPerson(svc.project.id, "maria@exchange.mx", "María López", "officer");
  people.juan = await addPerson(svc.project.id, "juan@exchange.mx", "Juan Pérez", "viewer");
  people.gone = await addPerson(svc.project.id, "ex@exchange.mx", "Ex Empleado", "officer", true);
  people.stranger = await addPerson(svc.other.id, "otra@other.mx", "Otra Persona", "officer");
}, 180_000);
afterAll(async () => {
  await svc?.stop();
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
});

describe("the inbox across all alerts", () => {
  it("one transfer's alerts are linked, with the deadline's jurisdiction time zone", async () => {
    const [tx] = await index([{ from: SANCTIONED, to: addr(5), value: ETH / 1000n }]);
    await checkAll();
    const { data, total } = await page("?client=mario");
    expect(total).toBe(2);
    const ofac = data.find((a) => a.causeKey === "XB-OFAC")!;
    const aviso = data.find((a) => a.causeKey === "MX-24H-LISTA")!;
    expect(ofac.linkedAlertIds).toEqual([aviso.id]);
    expect(aviso.linkedAlertIds).toEqual([ofac.id]);
    expect(aviso.deadline).toMatchObject({
      filing: "MX-URGENT",
      timeZone: "America/Mexico_City",
      overdue: false,
    });
    expect(ofac.deadline).toBeNull();
    expect(tx).toMatch(/^0x/);
  });

  it("120 newer alerts later, the old overdue one is first on page 1; the pages hold every alert once", async () => {
    clock += HOUR;
    await index(
      Array.from({ length: BULK }, (_, i) => ({
        from: SANCTIONED,
        to: addr(0x1000 + i),
        value: ETH / 1000n,
      })),
    );
    // the listed client's transfer: its profile is screened against OFAC's list, a person match
    await index([{ from: addr(0x99), to: addr(6), value: ETH / 1000n }]);
    await checkAll();
    const before = await page("?limit=5");
    expect(before.total).toBeGreaterThanOrEqual(2 + 2 * BULK + 1);
    expect(before.overdue).toBe(0);
    expect(before.data[0]!.subject.userId).not.toBe("mario"); // newest first while nothing is overdue
    // past the first 24-hour aviso's deadline, before the others'
    const old = (await page("?client=mario&cause=law&level=illegal")).data.find(
      (a) => a.causeKey === "MX-24H-LISTA",
    )!;
    clock = Date.parse(old.deadline!.at) + 60_000;
    const first = await page("?limit=20");
    expect(first.overdue).toBe(1);
    expect(first.data[0]!.id).toBe(old.id);
    expect(first.data[0]!.deadline!.overdue).toBe(true);
    expect(first.data.slice(1).map((a) => Number(a.id))).toEqual(
      first.data
        .slice(1)
        .map((a) => Number(a.id))
        .sort((a, b) => b - a),
    );
    const seen: string[] = [];
    for (let offset = 0; offset < first.total; offset += 50) {
      const p = await page(`?limit=50&offset=${offset}`);
      expect(p.total).toBe(first.total);
      seen.push(...p.data.map((a) => a.id));
    }
    expect(seen).toHaveLength(first.total);
    expect(new Set(seen).size).toBe(first.total);
    expect(seen[0]).toBe(old.id);
    expect((await page(`?limit=10&offset=${first.total}`)).data).toEqual([]);
  });

  it("filters by state, level, cause (person matches too), client and deadline", async () => {
    const persons = await page("?cause=person_match");
    expect(persons.total).toBe(1);
    expect(persons.data[0]).toMatchObject({
      subject: { userId: "listed" },
      level: "match",
      causeKey: "ofac-sdn:4107",
    });
    const bulk = await page("?client=bulk&limit=100");
    expect(bulk.total).toBe(2 * BULK);
    expect(bulk.data.every((a) => a.subject.userId === "bulk")).toBe(true);
    const illegal = await page("?level=illegal&limit=100");
    expect(illegal.data.every((a) => a.level === "illegal")).toBe(true);
    expect(illegal.total).toBe(2 + 2 * BULK);
    const due = await page(`?dueBefore=${encodeURIComponent(new Date(clock).toISOString())}`);
    expect(due.data.map((a) => a.causeKey)).toEqual(["MX-24H-LISTA"]);
    expect(due.total).toBe(1);
    expect((await page("?status=closed")).total).toBe(0);
    expect((await page("?client=nobody")).total).toBe(0);
    const bad = await api("GET", `${base()}?dueBefore=tomorrow`, svc.project.keys.viewer);
    expect(bad.statusCode).toBe(400);
  });

  it("an alert's reason reads in the language asked (reasonText); the stored reason stays as written", async () => {
    const read = async (query: string, lang: string) => {
      const res = await api("GET", `${base()}${query}`, svc.project.keys.viewer, undefined, lang);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-language"]).toBe(lang.startsWith("es") ? "es" : "en");
      return res.json().data as (Alert & { reason: string; reasonText: string })[];
    };
    const aviso = (await read("?client=mario&cause=law", "es-MX,es;q=0.9")).find(
      (a) => a.causeKey === "MX-24H-LISTA",
    )!;
    expect(aviso.reasonText).toMatch(
      /^LFPIORPI: aviso de 24 horas \(contraparte en listas de sanciones\)\. Transferencia 0x[0-9a-f]{64} de la dirección 0x0{39}5 \(cliente mario, por USD 3\)\.$/,
    );
    expect(aviso.reason).toMatch(/ Transaction 0x[0-9a-f]{64} of address /);
    const [person] = await read("?cause=person_match", "es-MX");
    expect(person!.reasonText).toMatch(
      /^[^,]*Rodríguez[^,]*, cliente listed, es una coincidencia de .+ en la lista ofac-sdn, versión .+: entrada 4107, puntuación [\d.]+, coincide en .+\.$/,
    );
    expect(person!.reasonText).not.toMatch(/ user | list, version | score | agreeing /);
    expect(person!.reason).toMatch(/ is a match for .+ on the ofac-sdn list, version /);
    // One alert read alone, and the same in English for a reader who asks for it.
    const alone = await api("GET", `${base()}/${person!.id}`, svc.project.keys.viewer, undefined, "es-MX");
    expect(alone.json().data.reasonText).toBe(person!.reasonText);
    const [english] = await read("?cause=person_match", "en");
    expect(english!.reasonText).toMatch(
      /^[^,]*Rodríguez[^,]*, user listed, is a match for .+ on the ofac-sdn list, version /,
    );
  });

  it("assigns to a person of the project, refusing one of another project or disabled; the filter finds them", async () => {
    const id = (await page("?client=mario&cause=law")).data.find((a) => a.causeKey === "XB-OFAC")!.id;
    const stranger = await triage(id, { assignee: people.stranger });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().details[0]).toMatchObject({ path: "/assignee" });
    expect(stranger.json().details[0].message).toMatch(/no person of this project has the user id/);
    const gone = await triage(id, { assignee: people.gone });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().details[0].message).toMatch(/is disabled/);
    const ok = await triage(id, { status: "in_review", assignee: people.maria, note: "Revisar contraparte" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({
      assignee: `user:${people.maria}`,
      assigneeUser: { id: people.maria, displayName: "María López" },
    });
    const mine = await page(`?assignee=${people.maria}`);
    expect(mine.data.map((a) => a.id)).toEqual([id]);
    expect((await page(`?assignee=${people.juan}`)).total).toBe(0);
    // the older form, a key's label, still works (deprecated)
    const label = await triage(id, { assignee: "viewer" });
    expect(label.statusCode).toBe(200);
    expect(label.json().data).toMatchObject({ assignee: "viewer", assigneeUser: null });
    expect((await page("?assignee=viewer")).data.map((a) => a.id)).toEqual([id]);
    expect((await triage(id, { assignee: people.juan })).statusCode).toBe(200);
  });
});

describe("the history in words", () => {
  it("names the person, the key and the service, in Spanish and in English", async () => {
    const id = (await page("?client=mario&cause=law")).data.find((a) => a.causeKey === "XB-OFAC")!.id;
    // a person's own change, as the sessions record it (`user:<id>`)
    await svc.database.db
      .insertInto("alert_history")
      .values({
        alert_id: id,
        actor: `user:${people.maria}`,
        at: new Date(clock),
        change: JSON.stringify({
          status: { from: "in_review", to: "escalated" },
          note: "Contraparte en lista OFAC",
        }),
      })
      .execute();
    const es = await one(id);
    const texts = es.history!.map((h) => h.text);
    expect(texts[0]).toMatch(
      /^Vigía \(el servicio\) levantó la alerta por la transferencia 0x[0-9a-f]{64}\.$/,
    );
    expect(texts).toContain(
      "La clave «officer» movió la alerta a En revisión, la asignó a María López; nota: «Revisar contraparte».",
    );
    expect(texts).toContain("La clave «officer» la asignó a viewer.");
    expect(texts).toContain("La clave «officer» la asignó a Juan Pérez.");
    expect(texts.at(-1)).toBe("María López movió la alerta a Escalada; nota: «Contraparte en lista OFAC».");
    const en = await one(id, "en-US,en;q=0.9");
    expect(en.history!.map((h) => h.text)).toContain(
      "The key “officer” moved the alert to In review, assigned it to María López; note: “Revisar contraparte”.",
    );
    expect(en.history!.at(-1)!.text).toBe(
      "María López moved the alert to Escalated; note: “Contraparte en lista OFAC”.",
    );
    // the stored entry is kept as it was: who, as the audit names them
    expect(es.history!.at(-1)!.actor).toBe(`user:${people.maria}`);
  });
});

describe("the case per client", () => {
  it("gathers the profile, screening, alerts grouped, addresses with risk, avisos and timeline", async () => {
    // an analysis of the listed client's address, and an aviso raised by the officer
    const scan = await api(
      "POST",
      `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      svc.project.keys.developer,
      {
        addresses: [{ address: addr(6), chainId: String(CHAIN) }],
        maxDepth: 2,
        skipExisting: false,
      },
    );
    expect(scan.statusCode, scan.body).toBe(200);
    const res = await api(
      "GET",
      `/v1/projects/${svc.project.id}/clients/listed/case`,
      svc.project.keys.viewer,
      undefined,
      "es-MX",
    );
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json().data;
    expect(c.clientId).toBe("listed");
    expect(c.profile.persons[0]).toMatchObject({ role: "client" });
    expect(JSON.stringify(c.profile.persons)).toContain("Rodríguez");
    expect(c.screening).toMatchObject({ verdict: "match" });
    expect(c.alerts.total).toBe(1);
    expect(c.alerts.groups[0].alerts[0]).toMatchObject({ cause: "person_match", causeKey: "ofac-sdn:4107" });
    expect(c.addresses).toEqual([
      expect.objectContaining({
        address: addr(6),
        chainId: CHAIN,
        risk: expect.objectContaining({ source: "scan", analysisId: scan.json().data.results[0].analysisId }),
      }),
    ]);
    const kinds = c.timeline.map((t: { messageId: string }) => t.messageId);
    expect(kinds).toEqual(
      expect.arrayContaining(["case.timeline.address", "case.timeline.screened", "case.timeline.alert"]),
    );
    const times = c.timeline.map((t: { at: string }) => Date.parse(t.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(c.timeline.find((t: { messageId: string }) => t.messageId === "case.timeline.screened").text).toBe(
      "Cribado contra las listas de personas: una coincidencia",
    );
    expect(c.timeline.find((t: { messageId: string }) => t.messageId === "case.timeline.alert").text).toMatch(
      /^Alerta \d+ \(una coincidencia en una lista de personas\): Vigía \(el servicio\) levantó la alerta por la entrada 4107 de la lista ofac-sdn\.$/,
    );
  });

  it("holds the client's avisos, its deadline written on Mexico City's clock", async () => {
    const aviso = (await page("?client=mario&cause=law")).data.find((a) => a.causeKey === "MX-24H-LISTA")!;
    const raised = await api("POST", `/v1/projects/${svc.project.id}/avisos`, svc.project.keys.officer, {
      userId: "mario",
      basis: "behaviour",
      countryCode: "MX",
      narrative: "El cliente recibio fondos de una direccion sancionada por OFAC y no explico su origen.",
      alertIds: [aviso.id],
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const res = await api(
      "GET",
      `/v1/projects/${svc.project.id}/clients/mario/case`,
      svc.project.keys.viewer,
      undefined,
      "es-MX",
    );
    const c = res.json().data;
    expect(c.avisos).toEqual([
      expect.objectContaining({
        reference: raised.json().data.reference,
        countryCode: "MX",
        alertIds: [aviso.id],
        settledAt: null,
      }),
    ]);
    const due = new Intl.DateTimeFormat("es-MX", {
      dateStyle: "long",
      timeStyle: "short",
      timeZone: "America/Mexico_City",
    }).format(new Date(c.avisos[0].deadline));
    const told = c.timeline.find((t: { messageId: string }) => t.messageId === "case.timeline.aviso");
    expect(told.text).toBe(`Se conoció el aviso ${raised.json().data.reference} (MX); vence el ${due}`);
    expect(told.text).toMatch(/de 2026/);
  });

  it("groups one transfer's alerts together and writes the timeline in English when asked", async () => {
    const res = await api(
      "GET",
      `/v1/projects/${svc.project.id}/clients/mario/case`,
      svc.project.keys.viewer,
      undefined,
      "en",
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-language"] ?? "en").toBe("en");
    const c = res.json().data;
    expect(c.alerts.total).toBe(2);
    expect(c.alerts.groups).toHaveLength(1);
    expect(c.alerts.groups[0].alerts.map((a: Alert) => a.causeKey).sort()).toEqual([
      "MX-24H-LISTA",
      "XB-OFAC",
    ]);
    expect(c.alerts.overdue).toBe(1);
    expect(c.screening).toMatchObject({ verdict: "clear" });
    expect(c.timeline.map((t: { text: string }) => t.text)).toContain(
      `The address ${addr(5)} was registered for monitoring`,
    );
    expect(
      c.timeline.some((t: { text: string }) => t.text.includes("María López moved the alert to Escalated")),
    ).toBe(true);
  });

  it("a client nothing names is a clear 404; another project sees none of them", async () => {
    const res = await api(
      "GET",
      `/v1/projects/${svc.project.id}/clients/nobody/case`,
      svc.project.keys.viewer,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: "not_found" });
    expect(res.json().message).toMatch(/No client "nobody" in this project.*integrator's user id/);
    const other = await api("GET", `/v1/projects/${svc.other.id}/clients/mario/case`, svc.other.keys.admin);
    expect(other.statusCode).toBe(404);
  });
});

describe("the wallet report made fresh", () => {
  it("an empty first scan is not the report's finding once a transfer is held: a scan made now is", async () => {
    await register(REPORTED, "mario");
    const first = await api(
      "POST",
      `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      svc.project.keys.developer,
      {
        addresses: [{ address: REPORTED, chainId: String(CHAIN) }],
        maxDepth: 2,
        skipExisting: false,
      },
    );
    expect(first.statusCode, first.body).toBe(200);
    const firstId = first.json().data.results[0].analysisId as string;
    const url = `/v1/wallets/${REPORTED}/report?chainId=${CHAIN}&lang=es`;
    const before = await api("GET", url, svc.project.keys.viewer);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.headers["x-report-analysis-id"]).toBe(firstId);
    // a transfer from the sanctioned address: the first scan read none
    await index([{ from: SANCTIONED, to: REPORTED, value: ETH / 100n }]);
    const after = await api("GET", url, svc.project.keys.viewer);
    expect(after.statusCode, after.body).toBe(200);
    expect(after.headers["x-report-cached"]).toBe("false");
    expect(after.headers["x-report-risk-source"]).toBe("scan");
    const freshId = after.headers["x-report-analysis-id"] as string;
    expect(freshId).not.toBe(firstId);
    expect(freshId).toMatch(/\S/);
    expect(Date.parse(after.headers["x-report-analysis-at"] as string)).not.toBeNaN();
    const stored = await api(
      "GET",
      `/v1/projects/${svc.project.id}/addresses/scan-risk?addresses=${REPORTED}`,
      svc.project.keys.viewer,
    );
    expect(stored.json().data.results[0].analysisId).toBe(freshId);
    // the empty scan's all-clear is gone: the report reads the transfer from the listed address
    expect(before.json().data).toMatch(/\*\*0\/100 /);
    expect(after.json().data).not.toMatch(/\*\*0\/100 /);
    expect(after.json().data).toMatch(/\*\*100\/100 \(crítico\)\*\*/);
    // asked again, the report rests on that fresh scan: served from the cache
    const again = await api("GET", url, svc.project.keys.viewer);
    expect(again.headers["x-report-cached"]).toBe("true");
    expect(again.headers["x-report-analysis-id"]).toBe(freshId);
  });
});
