// The filing calendar of a new project (docs/api.md, "Compliance reports"): nothing is owed for the months before the
// project existed, in the API as in vigia_filings_overdue; and `from`/`to` list what is due in a span across months,
// soonest first, the coming weeks' work. The real service; PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overdueFilings } from "../../src/reports/calendar.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
/** The service's clock: 10:00 on 29 November 2026 in Mexico City, the project created then. */
const NOW = Date.parse("2026-11-29T16:00:00Z");

beforeAll(async () => {
  svc = await startTestService({ service: { clock: () => NOW } });
  await svc.database.db
    .updateTable("projects")
    .set({ created_at: new Date(NOW) } as never)
    .where("id", "=", svc.project.id)
    .execute();
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      jurisdictions: ["MX", "CO"],
      jurisdiction_settings: {
        MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
        CO: { codigo_sirel: "12345" },
      },
    },
  });
  expect(patch.statusCode, patch.body).toBe(200);
});
afterAll(async () => {
  await svc?.close();
});

const calendar = (query: string) =>
  svc.app!.inject({
    url: `/v1/reports/calendar?projectId=${svc.project.id}&${query}`,
    headers: auth(svc.project.keys.viewer),
  });

describe("the calendar of a project created on 29 November 2026", () => {
  it("owes nothing for October, a month before it existed; November's filings are owed", async () => {
    const october = await calendar("period=2026-10");
    expect(october.statusCode, october.body).toBe(200);
    expect(october.json().data).toEqual([]);
    const november = await calendar("period=2026-11");
    expect(
      november
        .json()
        .data.map((f: { filing: string }) => f.filing)
        .sort(),
    ).toEqual(["CO-ROS-ABSENCE", "CO-TRANSACTIONS", "MX-AVI-MONTHLY"]);
  });

  it("vigia_filings_overdue counts none of the months before it either", async () => {
    const counts = await overdueFilings({ ...svc.reports, now: () => NOW });
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });

  it("from/to: what falls due in December, across the months, soonest first", async () => {
    const res = await calendar("from=2026-12-01&to=2026-12-31");
    expect(res.statusCode, res.body).toBe(200);
    const due = res.json().data as {
      filing: string;
      period: string;
      deadline: string;
      deadlineLocal: string;
      timeZone: string;
    }[];
    // Mexico's AVI of November by 17 December (23:59:59 in Mexico City), Colombia's two reports of November
    // within its twenty days after.
    expect(due.map((f) => `${f.filing} ${f.period}`).sort()).toEqual([
      "CO-ROS-ABSENCE 2026-11",
      "CO-TRANSACTIONS 2026-11",
      "MX-AVI-MONTHLY 2026-11",
    ]);
    const mx = due.find((f) => f.filing === "MX-AVI-MONTHLY");
    expect(mx?.deadline).toBe("2026-12-18T05:59:59.999Z");
    // The same instant as the law says it: the 17th, 23:59:59 on Mexico City's clock.
    expect(mx?.deadlineLocal).toBe("2026-12-17T23:59:59-06:00");
    expect(mx?.timeZone).toBe("America/Mexico_City");
    expect(due.find((f) => f.filing === "CO-TRANSACTIONS")?.timeZone).toBe("America/Bogota");
    for (const f of due) {
      expect(Date.parse(f.deadline)).toBeGreaterThanOrEqual(Date.parse("2026-12-01T00:00:00Z"));
      expect(Date.parse(f.deadline)).toBeLessThanOrEqual(Date.parse("2026-12-31T23:59:59.999Z"));
    }
    const sorted = [...due].sort((a, b) => a.deadline.localeCompare(b.deadline));
    expect(due).toEqual(sorted);
  });

  it("answers the month when `period` is given with a span; refuses neither, or a span backwards or past 400 days, saying what to give", async () => {
    const both = await calendar("period=2026-11&from=2026-12-01&to=2026-12-31");
    expect(both.statusCode).toBe(200);
    expect(both.json().data.map((f: { period: string }) => f.period)).toEqual([
      "2026-11",
      "2026-11",
      "2026-11",
    ]);
    const neither = await calendar("countryCode=MX");
    expect(neither.json().details[0].message).toMatch(/give `period` \(YYYY-MM\), or `from` and `to`/);
    const backwards = await calendar("from=2026-12-31&to=2026-12-01");
    expect(backwards.statusCode).toBe(400);
    const long = await calendar("from=2026-01-01&to=2027-12-31");
    expect(long.json().details[0].message).toMatch(/at most 400 days/);
  });
});
