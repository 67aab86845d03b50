// A service that runs workers schedules the monthly report job once per regulator, at 01:00 in its time zone
// (src/reports/schedule.ts); one without workers schedules nothing. PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, expect, it } from "vitest";
import { MONTHLY_REPORTS_QUEUE } from "../../src/reports/index.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
});
afterAll(async () => {
  await svc?.stop();
});

it("schedules the monthly reports per country in the regulator's time zone", async () => {
  const schedules = (await svc.jobs.schedules(MONTHLY_REPORTS_QUEUE)).sort((a, b) =>
    a.key < b.key ? -1 : 1,
  );
  expect(schedules).toEqual([
    { key: "CO", cron: "0 1 * * *", timezone: "America/Bogota", data: { countryCode: "CO" } },
    { key: "GT", cron: "0 1 * * *", timezone: "America/Guatemala", data: { countryCode: "GT" } },
    { key: "MX", cron: "0 1 * * *", timezone: "America/Mexico_City", data: { countryCode: "MX" } },
    { key: "SV", cron: "0 1 * * *", timezone: "America/El_Salvador", data: { countryCode: "SV" } },
  ]);
});
