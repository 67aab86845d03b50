// The jurisdictions end to end on a real anvil chain: the service (workers on: indexer, checker, deliverer) follows
// the chain for a project enabled for Mexico and Colombia; a Mexican client, a Colombian client and a Mexican client
// whose profile lacks the identification document receive transfers; each is notified with its own country's laws
// only, the incomplete profile also gets an error naming the field; then the month's files are built through the API
// (the service's clock in the next month), each client in its own country's file and the blocked one listed as a
// failed file, and the filing calendar shows each filing's state. PGlite, or PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zonedParts } from "../../src/platform/time-zone.ts";
import { Anvil } from "../indexer/support/anvil.ts";
import { until } from "../indexer/support/harness.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";
import { colombian, mexican } from "./cases/profiles.ts";

let anvil: Anvil;
let svc: TestService;
let integrator: http.Server;
const webhooks: { type: string; data: unknown }[] = [];
const PROFILES: Record<string, object> = {
  "mx-client": mexican(),
  "co-client": colombian(),
  "mx-blocked": mexican({ mexico: { rfc: "LORM900102AB1", actividadEconomica: 8250100 } }),
};
// The transfers' time: now, unless Mexico City and Bogotá are in different months (the hour after midnight in
// Bogotá on the first of a month, Bogotá being an hour ahead): then the minute after Mexico City's month begins,
// so that both countries' files and calendars see the transfers in one month. Reports see the month as closed:
// their clock is a week into the next month in Mexico City.
const now = ((real: Date) => {
  const mx = zonedParts(real, "America/Mexico_City");
  if (mx.month === zonedParts(real, "America/Bogota").month) return real;
  // Mexico City keeps UTC-6 all year: its next month begins at 06:00 UTC on the first.
  return new Date(Date.UTC(mx.year, mx.month, 1, 6, 1));
})(new Date());
const month = zonedParts(now, "America/Mexico_City");
const PERIOD = `${month.year}-${String(month.month).padStart(2, "0")}`;
const NEXT = Date.UTC(month.month === 12 ? month.year + 1 : month.year, month.month % 12, 8, 12);

beforeAll(async () => {
  anvil = await Anvil.start();
  integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
      if (user) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(PROFILES[user] ?? {}));
        return;
      }
      webhooks.push(JSON.parse(body));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    chains: [
      ...LOCAL_CHAINS.filter((c) => c.id !== 31337),
      { id: 31337, name: "anvil", currency_symbol: "ETH", rpc_url: anvil.url, confirmations: 0 },
    ],
    service: {
      workers: true,
      clock: () => NEXT,
      jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 },
    },
  });
  // ETH at USD 3,000, the peso at 20 and the Colombian peso at 4,000 per dollar, around today.
  const days = [-1, 0, 1].map((d) => new Date(now.getTime() + d * 86_400_000).toISOString().slice(0, 10));
  const db = svc.database.db;
  await db
    .insertInto("prices")
    .values(days.map((day) => ({ chain_id: 31337, token: "native", day, price_usd: "3000" })))
    .execute();
  await db
    .insertInto("fx_rates")
    .values(
      days.flatMap((day) => [
        { day, currency: "MXN", per_usd: "20" },
        { day, currency: "COP", per_usd: "4000" },
      ]),
    )
    .execute();
});
afterAll(async () => {
  await svc?.stop();
  await anvil?.stop();
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
});

const admin = () => auth(svc.project.keys.admin);
const laws = (m: { data: unknown }) =>
  ((m.data as { inflictedLaws: { id: string }[] }).inflictedLaws ?? []).map((l) => l.id);
const userOf = (m: { data: unknown }) => (m.data as { address: { userId: string } }).address.userId;

describe("jurisdictions on a real chain", () => {
  it("notifies each client with its own country's laws, and the missing field as an error", async () => {
    const accounts = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
    const patch = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}`,
      headers: admin(),
      payload: {
        integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
        jurisdictions: ["MX", "CO"],
        jurisdiction_settings: {
          MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
          CO: { codigo_sirel: "PSAV-0042" },
        },
      },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    await until(
      "the indexer's first checkpoint",
      async () =>
        (await svc.database.db
          .selectFrom("indexer_checkpoints")
          .select("block_number")
          .executeTakeFirst()) !== undefined,
    );
    const clients = ["mx-client", "co-client", "mx-blocked"];
    for (const [i, user] of clients.entries()) {
      const res = await svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${svc.project.id}/addresses`,
        headers: admin(),
        payload: { address: accounts[i + 1], chainId: 31337, foreign_user_id: user },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // 0.5 ETH: USD 1,500, MXN 30,000 (over 210 UMA and Colombia's USD 150); 0.1 ETH: USD 300.
    for (const [i, eth] of [5n, 1n, 5n].entries()) {
      // Each in a block of its own at the transfers' time (now, or just past a month's turn: see `now`).
      const at = Math.max(Math.floor(now.getTime() / 1000), Math.floor(Date.now() / 1000)) + i;
      await anvil.rpc("evm_setNextBlockTimestamp", [at]);
      await anvil.rpc("eth_sendTransaction", [
        { from: accounts[0], to: accounts[i + 1], value: `0x${((eth * 10n ** 18n) / 10n).toString(16)}` },
      ]);
    }
    await until("four messages", () => webhooks.length >= 4);
    const notifications = webhooks.filter((w) => w.type === "notification");
    expect(Object.fromEntries(notifications.map((n) => [userOf(n), laws(n)]))).toEqual({
      "mx-client": ["MX-AVISO"],
      "co-client": ["CO-TX-150"],
      "mx-blocked": ["MX-AVISO"],
    });
    const errors = webhooks.filter((w) => w.type === "error").map((w) => w.data as string);
    expect(errors).toEqual([
      expect.stringMatching(
        /^User mx-blocked .*`mexico\.documentoIdentificacion`.*It blocks México's files of/,
      ),
    ]);
  });

  it("builds each country's files with its own clients, and lists the blocked one as failed", async () => {
    const generate = (countryCode: string) =>
      svc.app!.inject({
        method: "POST",
        url: "/v1/reports/generate",
        headers: admin(),
        payload: { projectId: svc.project.id, countryCode, period: PERIOD },
      });
    const mx = (await generate("MX")).json().data;
    expect(mx.files.map((f: { name: string }) => f.name)).toEqual(["mx-client.xml"]);
    expect(mx.problems).toMatchObject([
      { userId: "mx-blocked", code: "profile_incomplete", field: "mexico.documentoIdentificacion" },
    ]);
    expect(mx.elsewhere).toEqual([]);
    const co = (await generate("CO")).json().data;
    expect(co.files.map((f: { name: string }) => f.name)).toEqual(["co-client.txt"]);
    const list = await svc.app!.inject({
      url: `/v1/reports?projectId=${svc.project.id}&countryCode=MX&period=${PERIOD}`,
      headers: admin(),
    });
    expect(list.json().data.map((r: { name: string; status: string }) => [r.name, r.status])).toEqual([
      ["mx-client.xml", "draft"],
      ["mx-blocked (failed)", "failed"],
    ]);
    // The failure reached the integrator as an error naming the file it blocks.
    await until("the failure's error", () =>
      webhooks.some((w) => w.type === "error" && String(w.data).includes("could not be generated")),
    );
  });

  it("shows the month's filings in the calendar, and records the one Vigía writes no file for", async () => {
    const calendar = async () =>
      (
        await svc.app!.inject({
          url: `/v1/reports/calendar?projectId=${svc.project.id}&period=${PERIOD}`,
          headers: admin(),
        })
      ).json().data as { filing: string; state: string; failures: unknown[]; files: unknown[] }[];
    const before = await calendar();
    expect(before.map((f) => [f.filing, f.state])).toEqual([
      ["MX-AVI-MONTHLY", "pending"],
      ["CO-TRANSACTIONS", "generated"],
      ["CO-ROS-ABSENCE", "pending"],
    ]);
    expect(before[0]?.failures).toHaveLength(1);
    const marked = await svc.app!.inject({
      method: "POST",
      url: "/v1/reports/calendar/filed",
      headers: admin(),
      payload: {
        projectId: svc.project.id,
        countryCode: "CO",
        period: PERIOD,
        filing: "CO-ROS-ABSENCE",
        folio: "SIREL-77",
      },
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().data).toMatchObject({ state: "filed", folio: "SIREL-77" });
    expect((await calendar()).find((f) => f.filing === "CO-ROS-ABSENCE")?.state).toBe("filed");
  });
});
