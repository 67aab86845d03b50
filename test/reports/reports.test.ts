// Compliance reports end to end on the real service (PGlite, or PostgreSQL with DATABASE_URL): the fixed scenario
// (scenario.ts) checked by the real checker, generated through the API for Mexico, Colombia, El Salvador and
// Guatemala, compared with the golden files in test/reports/golden (byte for byte; a second generation changes
// nothing), Mexico's thresholds on both sides of the 2026 UMA and of the 2025 reform, the six-month accumulation
// across two addresses, the 24-hour aviso, the informe en ceros, filing and versions, the list and its filters,
// signed URLs on an injected clock, and scoping to the project.
import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overdueFilings, runMonthly, UrgentAvisoWriter } from "../../src/reports/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { buildScenario, type Integrator, MX_ENTITY, startIntegrator } from "./scenario.ts";

const GOLDEN = path.join(import.meta.dirname, "golden");
const DAY = 24 * 3600_000;
let now = Date.parse("2026-04-02T12:00:00Z");
let svc: TestService;
let integrator: Integrator;

beforeAll(async () => {
  integrator = await startIntegrator();
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true", VIGIA_PUBLIC_URL: "https://vigia.example" },
    service: { clock: () => now },
  });
  await buildScenario(svc, integrator.url);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await integrator?.close();
});

const admin = () => auth(svc.project.keys.admin);
const generate = async (countryCode: string, period: string, key = svc.project.keys.admin) =>
  svc.app!.inject({
    method: "POST",
    url: "/v1/reports/generate",
    headers: auth(key),
    payload: { projectId: svc.project.id, countryCode, period },
  });
const list = async (query: string) => {
  const res = await svc.app!.inject({ url: `/v1/reports?${query}`, headers: admin() });
  return { status: res.statusCode, body: res.json() };
};
const q = (countryCode: string, period: string, extra = "") =>
  `projectId=${svc.project.id}&countryCode=${countryCode}&period=${period}${extra}`;

/** Downloads a report through its signed URL (the path and query of it, injected). */
async function fetchSigned(signedUrl: string) {
  const url = new URL(signedUrl);
  return svc.app!.inject({ url: `${url.pathname}${url.search}` });
}
async function downloadUrl(reportPath: string): Promise<string> {
  const res = await svc.app!.inject({
    url: `/v1/reports/download?path=${encodeURIComponent(reportPath)}`,
    headers: admin(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.signedUrl;
}

/**
 * A working-record file (SV, GT) with its header's project id written as {PROJECT} (the id differs between
 * databases: the embedded one's first start creates a demo project first). XML files and Colombia's (which name the
 * SIREL code) name no project.
 */
function normalized(reportPath: string, body: Buffer): Buffer {
  if (!reportPath.endsWith(".txt") || reportPath.startsWith("co/")) return body;
  const lines = body.toString("latin1").split("\r\n");
  const header = (lines[0] as string).split("|");
  header[2] = "{PROJECT}";
  lines[0] = header.join("|");
  return Buffer.from(lines.join("\r\n"), "latin1");
}

/** The golden file's bytes (UPDATE_GOLDEN=1 rewrites them from this run). */
function golden(name: string, actual: Buffer): Buffer {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1") {
    fs.mkdirSync(GOLDEN, { recursive: true });
    fs.writeFileSync(file, actual);
  }
  return fs.readFileSync(file);
}
async function expectGolden(reportPath: string, goldenName: string) {
  const res = await fetchSigned(await downloadUrl(reportPath));
  expect(res.statusCode).toBe(200);
  const body = res.rawPayload;
  const comparable = normalized(reportPath, body);
  expect(comparable.equals(golden(goldenName, comparable))).toBe(true);
  return body.toString(reportPath.endsWith(".xml") ? "utf8" : "latin1");
}

describe("Mexico", () => {
  it("writes the 24-hour aviso of the transfer from a sanctioned address at once", async () => {
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(1);
    const { body } = await list(q("MX", "2026-03"));
    const urgent = body.data.filter((r: { kind: string }) => r.kind === "urgent");
    expect(urgent).toHaveLength(1);
    expect(urgent[0].name).toMatch(/^u-jan31\.24h\.[0-9A-F]{14}\.xml$/);
    const xml = await expectGolden(urgent[0].path, "mx-2026-03-urgent.xml");
    expect(xml).toContain("<prioridad>2</prioridad>");
    expect(xml).toContain("<tipo_alerta>4122</tipo_alerta>");
    // Once written, it is not written again.
    expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(0);
  });

  it("reports March: the accumulation across u-acc's two addresses and u-big's operation; validated, golden", async () => {
    const res = await generate("MX", "2026-03");
    expect(res.statusCode).toBe(200);
    const gen = res.json().data;
    expect(gen.problems).toEqual([]);
    expect(gen.files.map((f: { name: string }) => f.name)).toEqual(["u-acc.xml", "u-big.xml"]);
    const acc = await expectGolden(`mx/${svc.project.id}/2026-03/u-acc.xml`, "mx-2026-03-u-acc.xml");
    // One aviso for the crossing receipt, carrying both receipts that added up (one per address).
    expect(acc.match(/<aviso>/g)).toHaveLength(1);
    expect(acc.match(/<recepcion>/g)).toHaveLength(2);
    expect(acc).not.toContain("<envio>");
    expect(acc).toContain("<monto_operacion_mn>14000.00</monto_operacion_mn>");
    expect(acc).toContain("<monto_operacion_mn>12000.00</monto_operacion_mn>");
    expect(acc).toContain("<fideicomiso>");
    expect(acc).toContain("<extranjero>");
    const big = await expectGolden(`mx/${svc.project.id}/2026-03/u-big.xml`, "mx-2026-03-u-big.xml");
    expect(big).toContain("<monto_operacion_mn>240000.00</monto_operacion_mn>");
    expect(big).toContain("<tipo_cambio_mn>20000.00</tipo_cambio_mn>");
    expect(big).toContain("<cantidad_activo_virtual>12.00</cantidad_activo_virtual>");
    expect(big).toContain("<fecha_hora_operacion>20260310120000</fecha_hora_operacion>");
  });

  it("is byte-stable: generating March again changes nothing", async () => {
    const gen = (await generate("MX", "2026-03")).json().data;
    expect(gen.files.map((f: { outcome: string }) => f.outcome)).toEqual(["unchanged", "unchanged"]);
  });

  it("counts 210 UMA at 2025's UMA on 31 January 2026 and at 2026's on 1 February", async () => {
    const jan = (await generate("MX", "2026-01")).json().data;
    expect(jan.files.map((f: { name: string }) => f.name)).toEqual(["u-jan31.xml"]);
    await expectGolden(`mx/${svc.project.id}/2026-01/u-jan31.xml`, "mx-2026-01-u-jan31.xml");
    // MXN 24,000 is under 210 × 117.31 = 24,635.10: February has no aviso, so it gets the informe en ceros.
    const feb = (await generate("MX", "2026-02")).json().data;
    expect(feb.files.map((f: { name: string }) => f.name)).toEqual(["informe-en-ceros.202602.xml"]);
    const zero = await expectGolden(
      `mx/${svc.project.id}/2026-02/informe-en-ceros.202602.xml`,
      "mx-2026-02-ceros.xml",
    );
    expect(zero).not.toContain("<aviso>");
  });

  it("counts 645 UMA before the 17 July 2025 reform and 210 from that day", async () => {
    const july = (await generate("MX", "2025-07")).json().data;
    expect(july.files.map((f: { name: string }) => f.name)).toEqual(["u-jul17.xml"]);
    const xml = await expectGolden(`mx/${svc.project.id}/2025-07/u-jul17.xml`, "mx-2025-07-u-jul17.xml");
    expect(xml).toContain("<persona_moral>");
    expect(xml).toContain(
      "<denominacion_razon>COMERCIALIZADORA DEL NORTE, S.A. DE C.V.</denominacion_razon>",
    );
  });

  it("refuses a month that has not closed in Mexico City", async () => {
    const res = await generate("MX", "2026-04");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("has not closed");
  });
});

describe("validation", () => {
  it("stores no file that fails the XSD, and says why in the generation", async () => {
    const patch = (entity: object) =>
      svc.app!.inject({
        method: "PATCH",
        url: `/v1/projects/${svc.project.id}`,
        headers: admin(),
        payload: { mx_reporting_entity: entity },
      });
    // An RFC with a 13th month passes the settings' pattern but not the XSD's dated one.
    expect((await patch({ ...MX_ENTITY, clave_sujeto_obligado: "VIG151301AB1" })).statusCode).toBe(200);
    try {
      const gen = (await generate("MX", "2025-08")).json().data;
      expect(gen.files).toEqual([]);
      expect(gen.problems).toEqual([
        {
          reason: expect.stringMatching(/does not validate against its schema: .*clave_sujeto_obligado/),
          code: "invalid_file",
          blocks: "informe-en-ceros.202508.xml of 2025-08",
        },
      ]);
      // No file; the list shows the failure with its reason.
      expect((await list(q("MX", "2025-08"))).body.data).toMatchObject([
        {
          status: "failed",
          kind: "zero",
          version: 0,
          reason: expect.stringContaining("does not validate"),
          code: "invalid_file",
        },
      ]);
      const res = await svc.app!.inject({
        url: `/v1/reports/generations?${q("MX", "2025-08")}`,
        headers: admin(),
      });
      expect(res.json().data[0].problems[0].reason).toContain("does not validate");
    } finally {
      await patch(MX_ENTITY);
    }
  });
});

describe("Colombia, El Salvador, Guatemala", () => {
  it("writes each country's files for March in its layout, each with its own clients only (golden)", async () => {
    const co = (await generate("CO", "2026-03")).json().data;
    expect(co.files.map((f: { name: string }) => f.name)).toEqual(["u-co.txt"]);
    const text = await expectGolden(`co/${svc.project.id}/2026-03/u-co.txt`, "co-2026-03-u-co.txt");
    const lines = text.split("\r\n");
    // The SIREL code of the settings, the cut-off date, three records: the month reached USD 450, so all are multiple.
    expect(lines[0]).toBe("0|PSAV-0042|20260331|3");
    expect(lines.slice(1, 4).map((l) => l.split("|").at(-1))).toEqual(["M", "M", "M"]);
    // USD, COP at the day's TRM (4,000) and the TRM, of the transaction's day in Bogotá.
    expect(lines[1]).toContain("|200.00|800000.00|4000.00|");
    expect(lines[4]).toBe("2|3|500.00|2000000.00");
    const sv = (await generate("SV", "2026-03")).json().data;
    expect(sv.files.map((f: { name: string }) => f.name)).toEqual(["u-sv.txt"]);
    await expectGolden(`sv/${svc.project.id}/2026-03/u-sv.txt`, "sv-2026-03-u-sv.txt");
    const gt = (await generate("GT", "2026-03")).json().data;
    expect(gt.files.map((f: { name: string }) => f.name)).toEqual(["u-gt.txt"]);
    await expectGolden(`gt/${svc.project.id}/2026-03/u-gt.txt`, "gt-2026-03-u-gt.txt");
  });

  it("keeps each client out of the other countries' files", async () => {
    for (const [country, own] of [
      ["MX", ["u-acc", "u-big", "u-jan31"]],
      ["CO", ["u-co"]],
      ["SV", ["u-sv"]],
      ["GT", ["u-gt"]],
    ] as const) {
      const users = new Set(
        (await list(q(country, "2026-03"))).body.data.map((r: { userId: string }) => r.userId),
      );
      expect([...users].sort(), country).toEqual([...own]);
    }
  });
});

describe("filed months", () => {
  it("keeps a filed file when its month is regenerated, and writes what changed as a correction", async () => {
    const filePath = `mx/${svc.project.id}/2026-01/u-jan31.xml`;
    const before = (await fetchSigned(await downloadUrl(filePath))).rawPayload;
    const filed = await svc.app!.inject({
      method: "POST",
      url: `/v1/reports/download/filed?path=${encodeURIComponent(filePath)}`,
      headers: admin(),
      payload: { folio: "2026-4321" },
    });
    expect(filed.statusCode).toBe(200);
    expect(filed.json().data).toMatchObject({ status: "filed", folio: "2026-4321" });
    // Regenerating with nothing changed keeps it and writes nothing.
    const again = (await generate("MX", "2026-01")).json().data;
    expect(again.files).toEqual([{ path: filePath, name: "u-jan31.xml", version: 1, outcome: "unchanged" }]);
    // The user's profile changes (a new address): the aviso changes, and is written as a correction, v2.
    const profiles = (await import("./scenario.ts")).PROFILES as Record<
      string,
      { address: { street: string } }
    >;
    const original = profiles["u-jan31"]!.address.street;
    profiles["u-jan31"]!.address.street = "Calle Durango";
    try {
      svc.reports.profiles.clear();
      const changed = (await generate("MX", "2026-01")).json().data;
      expect(changed.files.map((f: { name: string; outcome: string }) => [f.name, f.outcome])).toEqual([
        ["u-jan31.v2.xml", "written"],
      ]);
    } finally {
      profiles["u-jan31"]!.address.street = original;
      svc.reports.profiles.clear();
    }
    const v2 = (await fetchSigned(await downloadUrl(`mx/${svc.project.id}/2026-01/u-jan31.v2.xml`)))
      .rawPayload;
    expect(v2.toString()).toContain("<folio_modificacion>2026-4321</folio_modificacion>");
    expect(v2.toString()).toContain("CALLE DURANGO");
    // The filed version is byte for byte what was filed.
    expect((await fetchSigned(await downloadUrl(filePath))).rawPayload.equals(before)).toBe(true);
    const audit = await svc.database.db
      .selectFrom("audit_log")
      .select(["action", "target"])
      .where("project_id", "=", svc.project.id)
      .where("action", "like", "reports.%")
      .execute();
    expect(audit.map((a) => a.action)).toContain("reports.filed");
    expect(audit.filter((a) => a.action === "reports.generated").length).toBeGreaterThanOrEqual(8);
  });
});

describe("listing", () => {
  it("lists a month's reports by name, with search and pagination", async () => {
    const all = await list(q("MX", "2026-03"));
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: { name: string }) => r.name)).toEqual([
      "u-acc.xml",
      "u-big.xml",
      expect.stringMatching(/^u-jan31\.24h\./),
    ]);
    expect(all.body.data[0]).toMatchObject({
      id: `mx/${svc.project.id}/2026-03/u-acc.xml`,
      path: `mx/${svc.project.id}/2026-03/u-acc.xml`,
      countryCode: "MX",
      period: "2026-03",
      userId: "u-acc",
      created_at: expect.any(String),
    });
    expect((await list(q("MX", "2026-03", "&search=big"))).body.data).toHaveLength(1);
    expect((await list(q("MX", "2026-03", "&limit=1&offset=1"))).body.data[0].name).toBe("u-big.xml");
    expect((await list(q("CO", "2026-02"))).body.data).toEqual([]);
  });

  it("refuses a bad query (400) and another project (403)", async () => {
    expect((await list(q("MX", "2026-3"))).status).toBe(400);
    expect((await list(q("BR", "2026-03"))).status).toBe(400);
    expect((await list(`projectId=${svc.project.id}&period=2026-03`)).status).toBe(400);
    expect((await list(`projectId=${svc.other.id}&countryCode=MX&period=2026-03`)).status).toBe(403);
  });

  it("lists generations with the problems that kept files from being written", async () => {
    const profiles = (await import("./scenario.ts")).PROFILES as Record<string, unknown>;
    const saved = profiles["u-sv"];
    delete profiles["u-sv"];
    // What the reports log says, read from the log itself (a pino logger writing into memory).
    const logged: { level: number; msg: string; userId?: string; countryCode?: string; code?: string }[] = [];
    const log = svc.reports.log;
    svc.reports.log = pino(
      { level: "info" },
      { write: (line: string) => void logged.push(JSON.parse(line)) },
    );
    try {
      svc.reports.profiles.clear();
      const gen = (await generate("SV", "2026-03")).json().data;
      expect(gen.problems).toEqual([
        {
          userId: "u-sv",
          reason: "the user profile request answered 404",
          code: "profile_unreadable",
          blocks: "the working record of regulated-operation indicators of 2026-03",
        },
      ]);
    } finally {
      profiles["u-sv"] = saved;
      svc.reports.profiles.clear();
      svc.reports.log = log;
    }
    // Not silent: logged at error level naming the user and the reason, counted by country and reason, audited.
    expect(logged.filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({
        userId: "u-sv",
        countryCode: "SV",
        code: "profile_unreadable",
        msg: expect.stringContaining("report not generated"),
      }),
    ]);
    // Read from the registry /metrics serves (a scrape here would refresh the overdue filings a later test counts).
    const counted = await svc.metrics.getSingleMetric("vigia_report_failures_total")?.get();
    expect(counted?.values).toContainEqual(
      expect.objectContaining({ labels: { country: "SV", reason: "profile_unreadable" }, value: 1 }),
    );
    const audit = await svc.database.db
      .selectFrom("audit_log")
      .select(["action", "target", "details"])
      .where("project_id", "=", svc.project.id)
      .where("action", "=", "reports.failed")
      .where("target", "like", "sv/%")
      .execute();
    expect(audit).toEqual([
      {
        action: "reports.failed",
        target: `sv/${svc.project.id}/2026-03/u-sv`,
        details: expect.objectContaining({ userId: "u-sv", code: "profile_unreadable" }),
      },
    ]);
    const res = await svc.app!.inject({
      url: `/v1/reports/generations?${q("SV", "2026-03")}`,
      headers: admin(),
    });
    // Its only file could not be written: the generation failed.
    expect(res.json().data[0]).toMatchObject({
      trigger: "api",
      status: "failed",
      problems: [{ userId: "u-sv" }],
    });
    // The earlier draft was kept (a file that could not be rebuilt is not removed), and the failure is listed.
    expect(
      (await list(q("SV", "2026-03"))).body.data.map((r: { name: string; status: string }) => [
        r.name,
        r.status,
      ]),
    ).toEqual([
      ["u-sv.txt", "draft"],
      ["u-sv (failed)", "failed"],
    ]);
    // Generated again with the profile back, the failure is gone.
    await generate("SV", "2026-03");
    expect((await list(q("SV", "2026-03"))).body.data.map((r: { name: string }) => r.name)).toEqual([
      "u-sv.txt",
    ]);
  });
});

describe("downloads", () => {
  it("finds a report by file name, or by path (which takes precedence)", async () => {
    const byName = await svc.app!.inject({
      url: `/v1/reports/u-big.xml?${q("MX", "2026-03")}`,
      headers: admin(),
    });
    expect(byName.statusCode).toBe(200);
    expect(byName.json().data).toMatchObject({ name: "u-big.xml", period: "2026-03" });
    expect(byName.json().data.signedUrl).toMatch(
      new RegExp(
        `^https://vigia\\.example/v1/files/mx/${svc.project.id}/2026-03/u-big\\.xml\\?expires=\\d+&signed=\\d+&signature=`,
      ),
    );
    const byPath = await svc.app!.inject({
      url: `/v1/reports/anything?path=${encodeURIComponent(`co/${svc.project.id}/2026-03/u-co.txt`)}&${q("MX", "2026-03")}`,
      headers: admin(),
    });
    expect(byPath.json().data.name).toBe("u-co.txt");
    const missing = await svc.app!.inject({
      url: `/v1/reports/nobody.xml?${q("MX", "2026-03")}`,
      headers: admin(),
    });
    expect(missing.statusCode).toBe(404);
  });

  it("signed URLs work without a key on day 29 and answer 403 on day 31, or when one character changes", async () => {
    const start = now;
    const url = await downloadUrl(`mx/${svc.project.id}/2026-03/u-big.xml`);
    try {
      now = start + 29 * DAY;
      const ok = await fetchSigned(url);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers["content-type"]).toBe("application/xml");
      now = start + 31 * DAY;
      const expired = await fetchSigned(url);
      expect(expired.statusCode).toBe(403);
      expect(expired.json().message).toContain("expired");
      now = start + DAY;
      const signature = new URL(url).searchParams.get("signature") as string;
      const flipped = signature.at(-1) === "A" ? "B" : "A";
      expect(
        (await fetchSigned(url.replace(signature, `${signature.slice(0, -1)}${flipped}`))).statusCode,
      ).toBe(403);
      expect((await fetchSigned(url.replace("u-big.xml", "u-acc.xml"))).statusCode).toBe(403);
      const expires = new URL(url).searchParams.get("expires") as string;
      expect(
        (await fetchSigned(url.replace(`expires=${expires}`, `expires=${Number(expires) + 86400}`)))
          .statusCode,
      ).toBe(403);
      const signed = new URL(url).searchParams.get("signed") as string;
      expect(
        (await fetchSigned(url.replace(`signed=${signed}`, `signed=${Number(signed) - 1}`))).statusCode,
      ).toBe(403);
    } finally {
      now = start;
    }
  });

  it("refuses path traversal, and another project's report is not found", async () => {
    for (const bad of [
      `mx/${svc.project.id}/2026-03/../../../secret`,
      `mx/${svc.project.id}/../${svc.other.id}/2026-03/u-big.xml`,
      "/etc/passwd",
      `mx/${svc.other.id}/2026-03/u-big.xml`,
    ]) {
      const res = await svc.app!.inject({
        url: `/v1/reports/download?path=${encodeURIComponent(bad)}`,
        headers: admin(),
      });
      // A malformed path is refused by the query schema (400); a well-formed one outside the project is not found.
      expect(res.statusCode, bad).toBe(bad.includes("..") || bad.startsWith("/") ? 400 : 404);
    }
    const theirs = await svc.app!.inject({
      url: `/v1/reports/download?path=${encodeURIComponent(`mx/${svc.project.id}/2026-03/u-big.xml`)}`,
      headers: auth(svc.other.keys.admin),
    });
    expect(theirs.statusCode).toBe(404);
    const signature = "a".repeat(43);
    for (const url of [
      "/v1/files/mx/../../secret",
      "/v1/files/mx%2F..%2F..%2Fsecret",
      "/v1/files/mx/1/..%2F..%2Fx",
    ]) {
      const res = await svc.app!.inject({ url: `${url}?expires=9999999999&signature=${signature}` });
      expect([400, 403, 404], url).toContain(res.statusCode);
    }
  });

  it("lets only admins generate and file", async () => {
    expect((await generate("MX", "2026-03", svc.project.keys.developer)).statusCode).toBe(403);
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/reports/u-big.xml/filed?${q("MX", "2026-03")}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("filing calendar", () => {
  const calendar = async (period: string) =>
    (
      await svc.app!.inject({
        url: `/v1/reports/calendar?projectId=${svc.project.id}&period=${period}`,
        headers: admin(),
      })
    ).json().data as {
      countryCode: string;
      filing: string;
      state: string;
      deadline: string;
      files: unknown[];
    }[];

  it("lists every filing March owes, with its deadline and state", async () => {
    const march = await calendar("2026-03");
    expect(
      march.map((f) => [f.countryCode, f.filing.replace(/:.*$/, ":<aviso>"), f.state, f.deadline]),
    ).toEqual([
      ["MX", "MX-AVI-MONTHLY", "generated", "2026-04-18T05:59:59.999Z"],
      ["MX", "MX-URGENT:<aviso>", "generated", "2026-04-03T12:00:00.000Z"],
      ["CO", "CO-TRANSACTIONS", "generated", "2026-04-21T04:59:59.999Z"],
      ["CO", "CO-ROS-ABSENCE", "pending", "2026-04-21T04:59:59.999Z"],
    ]);
    // El Salvador and Guatemala list no filing: no virtual-asset threshold of theirs is in force.
    expect(march.some((f) => f.countryCode === "SV" || f.countryCode === "GT")).toBe(false);
  });

  it("shows a filing overdue once its deadline passes unfiled, counts it, and lets an officer record one", async () => {
    const start = now;
    // Colombia's February has nothing to report: generated with no file, it can never be late.
    expect((await generate("CO", "2026-02")).json().data.files).toEqual([]);
    // The count starts at the project's first month: the project was made today, on the wall clock.
    await svc.database.db
      .updateTable("projects")
      .set({ created_at: new Date("2025-01-01T00:00:00Z") } as never)
      .where("id", "=", svc.project.id)
      .execute();
    try {
      now = Date.parse("2026-04-25T12:00:00Z");
      const march = await calendar("2026-03");
      expect(march.filter((f) => f.state === "overdue").map((f) => f.filing.replace(/:.*$/, ""))).toEqual([
        "MX-AVI-MONTHLY",
        "MX-URGENT",
        "CO-TRANSACTIONS",
        "CO-ROS-ABSENCE",
      ]);
      const february = await calendar("2026-02");
      expect(february.find((f) => f.filing === "CO-TRANSACTIONS")?.state).toBe("generated");
      const counts = await overdueFilings(svc.reports);
      expect(counts.get("MX")).toBeGreaterThanOrEqual(1);
      const metrics = await svc.app!.inject({ url: "/metrics", headers: admin() });
      expect(metrics.body).toMatch(/vigia_filings_overdue\{country="CO"\} [1-9]/);
      const record = await svc.app!.inject({
        method: "POST",
        url: "/v1/reports/calendar/filed",
        headers: admin(),
        payload: {
          projectId: svc.project.id,
          countryCode: "CO",
          period: "2026-03",
          filing: "CO-ROS-ABSENCE",
        },
      });
      expect(record.json().data.state).toBe("filed");
      // A filing the month does not owe is refused, naming those it does.
      const wrong = await svc.app!.inject({
        method: "POST",
        url: "/v1/reports/calendar/filed",
        headers: admin(),
        payload: { projectId: svc.project.id, countryCode: "CO", period: "2026-03", filing: "CO-NOTHING" },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().details[0].message).toContain("CO-TRANSACTIONS");
    } finally {
      now = start;
    }
  });
});

describe("schedule", () => {
  it("generates the month that closed for every project enabling the country, once", async () => {
    const run = await runMonthly(svc.reports, "GT", Date.parse("2026-03-01T08:00:00Z"));
    expect(run).toMatchObject({ period: "2026-02", failed: [] });
    expect(run.generated.map((g) => g.projectId)).toEqual([svc.project.id]);
    // The next day's run finds February generated without problems and does nothing.
    const next = await runMonthly(svc.reports, "GT", Date.parse("2026-03-02T08:00:00Z"));
    expect(next.generated).toEqual([]);
  });
});
