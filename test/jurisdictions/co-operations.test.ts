// Colombia's law on the exchange's own operations, on the real service: a Colombian client's buy of USD 200 is an
// individual transaction (CO-TX-150) and a line of April's UIAF file, with its asset and amount, `-` for the wallets
// it has none of and the platform's operation id; a sale of USD 149.99 is not; a fiat deposit of USD 500 is no
// transaction with virtual assets and meets nothing; then three trades of the next month that add up to USD 450 make
// the multiple, each line marked M. Every file checked against its documented layout. PGlite, or PostgreSQL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateReports } from "../../src/reports/index.ts";
import { judgeAllOperations } from "../support/operations.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { colombian } from "./cases/profiles.ts";
import { checkCoLayout } from "./support/co-layout.ts";

let svc: TestService;
let integrator: http.Server;
const bogota = (wall: string) => `${wall.replace(" ", "T")}:00-05:00`;

beforeAll(async () => {
  integrator = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    if (!user) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(colombian()));
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
      jurisdictions: ["CO"],
      jurisdiction_settings: { CO: { codigo_sirel: "SIREL-123" } },
    },
  });
  expect(patch.statusCode, patch.body).toBe(200);
  const days: string[] = [];
  for (let d = Date.parse("2026-04-01T00:00:00Z"); d <= Date.parse("2026-06-01T00:00:00Z"); d += 86_400_000)
    days.push(new Date(d).toISOString().slice(0, 10));
  await svc.database.db
    .insertInto("fx_rates")
    .values(days.map((day) => ({ day, currency: "COP", per_usd: "4000" })))
    .execute();
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/operations`,
    headers: auth(svc.project.keys.developer),
    payload: {
      operations: [
        {
          operationId: "co-buy",
          userId: "camila",
          kind: "buy",
          at: bogota("2026-04-10 11:00"),
          asset: "USDT",
          amount: "200",
          currency: "COP",
          fiatAmount: "800000",
          price: "4000",
        },
        {
          operationId: "co-sell",
          userId: "camila",
          kind: "sell",
          at: bogota("2026-04-11 11:00"),
          asset: "USDT",
          amount: "149.99",
          currency: "COP",
          fiatAmount: "599960",
          price: "4000",
        },
        {
          operationId: "co-in",
          userId: "camila",
          kind: "fiat_deposit",
          at: bogota("2026-04-12 11:00"),
          currency: "COP",
          amount: "2000000",
          rail: "ach",
          counterparty: { name: "Camila Restrepo Gómez", bank: "Bancolombia", account: "12345678901" },
          reference: "ACH-1",
        },
        {
          operationId: "co-m1",
          userId: "camila",
          kind: "buy",
          at: bogota("2026-05-05 11:00"),
          asset: "USDT",
          amount: "140",
          currency: "COP",
          fiatAmount: "560000",
          price: "4000",
        },
        {
          operationId: "co-m2",
          userId: "camila",
          kind: "sell",
          at: bogota("2026-05-06 11:00"),
          asset: "USDT",
          amount: "140",
          currency: "COP",
          fiatAmount: "560000",
          price: "4000",
        },
        {
          operationId: "co-m3",
          userId: "camila",
          kind: "buy",
          at: bogota("2026-05-07 11:00"),
          asset: "USDT",
          amount: "170",
          currency: "COP",
          fiatAmount: "680000",
          price: "4000",
        },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  await judgeAllOperations(svc);
});
afterAll(async () => {
  await svc?.stop();
  integrator.closeAllConnections();
  await new Promise((resolve) => integrator.close(resolve));
});

const laws = async () =>
  Object.fromEntries(
    (
      await svc.database.db
        .selectFrom("exchange_operations")
        .select(["operation_id", "laws"])
        .where("project_id", "=", svc.project.id)
        .execute()
    ).map((r) => [r.operation_id, r.laws]),
  );
async function file(period: string): Promise<string[][]> {
  const summary = await generateReports(svc.reports, {
    projectId: svc.project.id,
    countryCode: "CO",
    period,
    trigger: "api",
    actor: "test",
  });
  expect(summary.problems).toEqual([]);
  const [row] = await svc.database.db
    .selectFrom("reports")
    .select("storage_key")
    .where("project_id", "=", svc.project.id)
    .where("period", "=", period)
    .where("kind", "=", "monthly")
    .execute();
  const text = ((await svc.reports.store.get(row?.storage_key as string)) as Buffer).toString("latin1");
  expect(checkCoLayout(text)).toEqual([]);
  return text
    .trim()
    .split("\r\n")
    .map((l) => l.split("|"))
    .filter((f) => f[0] === "1");
}

describe("Colombia's reports of the exchange's operations", () => {
  it("judges trades by Resolución UIAF 314, not fiat deposits", async () => {
    expect(await laws()).toMatchObject({
      "co-buy": ["CO-TX-150"],
      "co-sell": [],
      "co-in": [],
      "co-m1": [],
      "co-m2": [],
      // USD 170: an individual transaction too, and the one that brings May to USD 450.
      "co-m3": ["CO-TX-150", "CO-TX-450"],
    });
  });

  it("writes April's individual transaction with its asset, amount, no wallets and the operation id", async () => {
    const lines = await file("2026-04");
    expect(lines).toHaveLength(1);
    const line = lines[0] as string[];
    expect(line.slice(11, 21)).toEqual([
      "R",
      "USDT",
      "200",
      "200.00",
      "800000.00",
      "4000.00",
      "-",
      "-",
      "co-buy",
      "I",
    ]);
  });

  it("writes May's multiple: the three trades, each marked M", async () => {
    const lines = await file("2026-05");
    expect(lines.map((l) => [l[11], l[13], l[20]])).toEqual([
      ["R", "140", "M"],
      ["E", "140", "M"],
      ["R", "170", "M"],
    ]);
  });
});
