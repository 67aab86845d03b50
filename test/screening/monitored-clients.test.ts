// Every monitored client screened (docs/api.md, "Screening"): a client is screened when the transfer checker first
// reads its profile, and again when a list of persons changes; a candidate raises a `person_match` alert naming the
// list, its version and the entry, once while it is open; the same list imported twice raises nothing more. The
// profiles come from a real integrator on 127.0.0.1, the transfers as the indexer writes them. PGlite, or
// PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPersonListFiles } from "../../src/ingest/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { clientListings, profileRead, rescreenClients, Screener } from "../../src/screening/index.ts";
import { colombian, mexican } from "../jurisdictions/cases/profiles.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/person-lists");
const CHAIN = 31337;
const LISTED = "0x00000000000000000000000000000000000a0001";
const CLEAN = "0x00000000000000000000000000000000000a0002";
const OTHER = "0x00000000000000000000000000000000000b0001";

const PROFILES: Record<string, object> = {
  // On OFAC's SDN list (entry 4107 of the fixture), written as a client record would carry him.
  "user-listed": colombian({
    givenName: "Gilberto José",
    paternalSurname: "Rodríguez",
    maternalSurname: "Orejuela",
    birthdate: "1939-01-31",
  }),
  "user-clean": mexican(),
};

let svc: TestService;
let integrator: http.Server;
let reads = 0;
let screener: Screener;
let checker: TransferChecker;
let chain: MonitoredChain;

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  integrator = http.createServer((req, res) => {
    const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const profile = user ? PROFILES[decodeURIComponent(user)] : undefined;
    if (req.method === "GET") reads += 1;
    if (!profile) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: { integration_url: url, jurisdictions: ["MX", "CO"] },
  });
  expect(patch.statusCode, patch.body).toBe(200);
  for (const [address, user] of [
    [LISTED, "user-listed"],
    [CLEAN, "user-clean"],
  ] as const) {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address, chainId: CHAIN, foreign_user_id: user },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const db = svc.database.db;
  screener = new Screener(db);
  checker = new TransferChecker({
    db,
    registry: svc.registry,
    profiles: new ProfileReader(
      { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
      { ttlMs: 0, failureBackoffMs: 0 },
    ),
    clientListings: (client, read) => clientListings(db, screener, client, read, new Date()),
  });
  chain = new MonitoredChain(db, CHAIN);
});
afterAll(async () => {
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
  await svc?.close();
});

const personAlerts = async () => {
  const res = await svc.app!.inject({
    url: `/v1/projects/${svc.project.id}/alerts?cause=person_match`,
    headers: auth(svc.project.keys.viewer),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    id: string;
    level: string;
    causeKey: string;
    reason: string;
    subject: { userId: string; address: string };
    evidence: { persons: { list: string; entryId: string; listVersion: string; subject: string }[] };
  }[];
};

const transfer = (to: string, minute: number) =>
  chain.block(new Date(Date.UTC(2026, 11, 2, 15, minute)), [{ from: OTHER, to, value: 10n ** 15n }]);

describe("monitored clients and the lists of persons", () => {
  it("with no list imported, a checked transfer screens nobody and reads no profile for it", async () => {
    await transfer(LISTED, 0);
    await transfer(CLEAN, 1);
    while ((await checker.runOnce()) > 0) {}
    // Each client was queued at its registration, and is still: nothing to screen against yet.
    const rows = await svc.database.db
      .selectFrom("client_screenings")
      .select(["user_id", "verdict", "lists_key"])
      .orderBy("user_id")
      .execute();
    expect(rows).toEqual([
      { user_id: "user-clean", verdict: "pending", lists_key: "" },
      { user_id: "user-listed", verdict: "pending", lists_key: "" },
    ]);
    expect(reads).toBe(0);
    expect(await personAlerts()).toEqual([]);
  });

  it("after the UN list is imported, each client is screened at its next transfer: both clear", async () => {
    const un = await importPersonListFiles(svc.database.db, "un", [
      path.join(FIXTURES, "un_consolidated.xml"),
    ]);
    expect(un.status).toBe("imported");
    await transfer(LISTED, 2);
    await transfer(CLEAN, 3);
    while ((await checker.runOnce()) > 0) {}
    const rows = await svc.database.db
      .selectFrom("client_screenings")
      .select(["user_id", "verdict", "lists_key"])
      .orderBy("user_id")
      .execute();
    expect(rows.map((r) => [r.user_id, r.verdict])).toEqual([
      ["user-clean", "clear"],
      ["user-listed", "clear"],
    ]);
    expect(reads).toBe(2);
    expect(await personAlerts()).toEqual([]);
  });

  it("OFAC's list imported later screens them again from what was kept, and raises the listed one's alert", async () => {
    await importPersonListFiles(svc.database.db, "ofac-sdn", [
      path.join(FIXTURES, "ofac-csv/sdn.csv"),
      path.join(FIXTURES, "ofac-csv/alt.csv"),
    ]);
    const run = await rescreenClients(svc.database.db, screener, 100, () => new Date());
    expect(run).toEqual({ claimed: 2, screened: 2, alerts: 1, failed: [] });
    // Screened from the persons kept of the profiles: the integrator was not asked again.
    expect(reads).toBe(2);
    const [alert, ...more] = await personAlerts();
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      level: "match",
      causeKey: "ofac-sdn:4107",
      subject: { userId: "user-listed", address: LISTED },
    });
    expect(alert?.evidence.persons[0]).toMatchObject({
      list: "ofac-sdn",
      entryId: "4107",
      subject: "Gilberto José Rodríguez Orejuela",
      listVersion: expect.stringMatching(/^sha256:/),
    });
    expect(alert?.reason).toMatch(/RODRIGUEZ OREJUELA, Gilberto Jose on the ofac-sdn list/);
    // The evidence pack names the list entry the officer must check.
    const pack = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts/${alert?.id}/evidence?format=md`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(pack.statusCode).toBe(200);
    expect(pack.body).toMatch(
      /## Lists of persons[\s\S]*\| client \| Gilberto José Rodríguez Orejuela \| ofac-sdn \|/,
    );
    // Nothing left to screen again.
    expect(await rescreenClients(svc.database.db, screener, 100, () => new Date())).toEqual({
      claimed: 0,
      screened: 0,
      alerts: 0,
      failed: [],
    });
  });

  it("the same list imported again changes nothing and raises nothing", async () => {
    const again = await importPersonListFiles(svc.database.db, "ofac-sdn", [
      path.join(FIXTURES, "ofac-csv/sdn.csv"),
      path.join(FIXTURES, "ofac-csv/alt.csv"),
    ]);
    expect(again.status).toBe("unchanged");
    expect(await rescreenClients(svc.database.db, screener, 100, () => new Date())).toEqual({
      claimed: 0,
      screened: 0,
      alerts: 0,
      failed: [],
    });
    expect(await personAlerts()).toHaveLength(1);
  });

  it("a later transfer of the listed client is judged with its screening: no law of Colombia's for an OFAC match, no new alert", async () => {
    await transfer(LISTED, 4);
    while ((await checker.runOnce()) > 0) {}
    const laws = await svc.database.db
      .selectFrom("monitored_transfers")
      .select(["laws"])
      .where("project_id", "=", svc.project.id)
      .orderBy("evaluated_at", "desc")
      .executeTakeFirstOrThrow();
    expect(laws.laws ?? []).not.toContain("MX-LPB");
    expect(await personAlerts()).toHaveLength(1);
  });

  it("a profile read later that names other persons screens the client again; the same profile changes nothing", async () => {
    const client = {
      projectId: svc.project.id,
      userId: "user-clean",
      chainId: CHAIN,
      address: CLEAN,
      addressId: null,
    };
    const same = await profileRead(svc.database.db, screener, client, mexican() as never, new Date());
    expect(same).toBeUndefined();
    // The client's beneficial owner, added to the profile, is on OFAC's list.
    const changed = mexican({
      beneficiarioControlador: {
        givenName: "Gilberto José",
        paternalSurname: "Rodríguez",
        maternalSurname: "Orejuela",
      },
    });
    const again = await profileRead(svc.database.db, screener, client, changed as never, new Date());
    expect(again?.verdict).not.toBe("clear");
    const raised = (await personAlerts()).find((a) => a.subject.userId === "user-clean");
    expect(raised?.evidence.persons[0]).toMatchObject({
      entryId: "4107",
      subject: "Gilberto José Rodríguez Orejuela",
    });
    expect(raised?.reason).toMatch(/the beneficial owner of user user-clean/);
  });

  it("new thresholds screen the project's clients again", async () => {
    const patch = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}`,
      headers: auth(svc.project.keys.admin),
      payload: { screening_thresholds: { "ofac-sdn": { review: 0.75, match: 0.95 } } },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const run = await rescreenClients(svc.database.db, screener, 100, () => new Date());
    expect(run.screened).toBe(2);
    expect(run.failed).toEqual([]);
  });
});
