// The workers' scheduled refresh of the public lists (src/ingest/refresh) against a list server on 127.0.0.1: a
// fresh list is imported, then left alone until its interval has passed and found unchanged; a server that fails is
// recorded, counted and tried again after an hour; a truncated but well-formed list that would remove more than the
// allowed share is refused and the list kept; each list's age and last refresh reach the metrics, /readyz's details
// and GET /screening/lists; an import whose stderr is no terminal writes timed progress lines. PGlite, or
// PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  importPersonListFiles,
  ListRefresher,
  listFreshness,
  type RefreshOutcome,
} from "../../src/ingest/index.ts";
import type { PerKind } from "../../src/platform/config.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { commandProgress } from "../../src/platform/progress.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/person-lists");
const UN = fs.readFileSync(path.join(FIXTURES, "un_consolidated.xml"), "utf8");
const SDN = fs.readFileSync(path.resolve(import.meta.dirname, "labels-fixtures/sdn_v1.xml"), "utf8");
const HOUR = 3_600_000;

/** The UN list with only its first `keep` individuals and no entity: well formed, and short. */
function truncatedUn(keep: number): string {
  const individuals = [...UN.matchAll(/<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>/g)].map((m) => m[0]);
  const head = UN.slice(0, UN.indexOf("<INDIVIDUALS>") + "<INDIVIDUALS>".length);
  return `${head}${individuals.slice(0, keep).join("")}</INDIVIDUALS><ENTITIES></ENTITIES></CONSOLIDATED_LIST>\n`;
}

let svc: TestService;
let server: http.Server;
let base: string;
const served: Record<string, { status: number; body: string }> = {};
const requests: string[] = [];

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_LIST_URLS: "", VIGIA_LIST_MAX_AGE_HOURS: "48,mx-lpb=744" } });
  server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const answer = served[req.url ?? ""] ?? { status: 404, body: "" };
    res.writeHead(answer.status, { "content-type": "application/xml" }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served["/un.xml"] = { status: 200, body: UN };
  served["/SDN.XML"] = { status: 200, body: SDN };
});
afterAll(async () => {
  await svc?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

// Only the two lists the local server serves: every other kind's interval is 0 (never).
const refreshHours: PerKind = { fallback: 24, byKind: { "ofac-sdn": 0, "sat-69b": 0, ftm: 0 } };
let clock = Date.now();
const outcomes: [string, RefreshOutcome][] = [];
const logged: string[] = [];
const refresher = () =>
  new ListRefresher({
    db: svc.database.db,
    outbound: new OutboundClient({ allowPrivate: true }),
    refreshHours,
    urls: { un: `${base}/un.xml`, sanctions: `${base}/SDN.XML` },
    maxShrink: 0.1,
    now: () => new Date(clock),
    onOutcome: (kind, outcome) => outcomes.push([kind, outcome]),
    log: {
      info: (_o, m) => logged.push(m),
      warn: (_o, m) => logged.push(m),
      error: (_o, m) => logged.push(m),
    },
  });
const freshness = () =>
  listFreshness(svc.database.db, new Date(clock), {
    maxAgeHours: { fallback: 48, byKind: { "mx-lpb": 744 } },
    refreshHours,
    refreshable: (kind) => kind === "un" || kind === "sanctions",
  });
const unEntries = async () =>
  (
    await svc.database.db
      .selectFrom("person_lists")
      .select("entries")
      .where("kind", "=", "un")
      .where("current", "=", true)
      .executeTakeFirst()
  )?.entries;

describe("the scheduled refresh of the lists", () => {
  it("imports each list that was never loaded, one per step, then has nothing due", async () => {
    const r = refresher();
    expect(r.scheduledKinds()).toEqual(["un", "sanctions"]);
    expect(await r.runOnce()).toBe(1);
    expect(await r.runOnce()).toBe(1);
    expect(await r.runOnce()).toBe(0);
    expect(outcomes).toEqual([
      ["un", "imported"],
      ["sanctions", "imported"],
    ]);
    expect(await unEntries()).toBe(22);
    const fresh = await freshness();
    expect(fresh.map((f) => [f.kind, f.stale, f.lastRefresh?.outcome])).toEqual([
      ["un", false, "imported"],
      ["sanctions", false, "imported"],
    ]);
    expect(fresh.every((f) => f.ageSeconds !== null && f.ageSeconds < 60)).toBe(true);
  });

  it("leaves a list alone until its interval has passed, then finds it unchanged", async () => {
    clock += 23 * HOUR;
    requests.length = 0;
    expect(await refresher().runOnce()).toBe(0);
    expect(requests).toEqual([]);
    clock += 2 * HOUR;
    const r = refresher();
    expect(await r.runOnce()).toBe(1);
    expect(await r.runOnce()).toBe(1);
    expect(outcomes.slice(-2)).toEqual([
      ["un", "unchanged"],
      ["sanctions", "unchanged"],
    ]);
  });

  it("a server that fails is recorded, logged and counted, the list kept, and tried again after an hour", async () => {
    clock += 25 * HOUR;
    served["/un.xml"] = { status: 503, body: "" };
    const r = refresher();
    expect(await r.refresh("un")).toBe("failed");
    expect(await unEntries()).toBe(22);
    const un = (await freshness()).find((f) => f.kind === "un");
    expect(un?.lastRefresh).toMatchObject({
      outcome: "failed",
      failures: 1,
      error: `${base}/un.xml: HTTP 503`,
    });
    expect(logged.at(-1)).toBe(
      `list un refresh failed, the list is kept as it was: ${base}/un.xml: HTTP 503`,
    );
    // Within the hour it is not tried again; after it, it is.
    clock += 30 * 60_000;
    requests.length = 0;
    await r.runOnce(); // the sanctions list is due (its own interval), the UN list is not
    expect(requests).toEqual(["/SDN.XML"]);
    clock += 31 * 60_000;
    requests.length = 0;
    await r.runOnce();
    expect(requests).toEqual(["/un.xml"]);
    expect((await freshness()).find((f) => f.kind === "un")?.lastRefresh).toMatchObject({ failures: 2 });
  });

  it("a truncated but well-formed list is refused, the list kept, and said with the counts", async () => {
    served["/un.xml"] = { status: 200, body: truncatedUn(2) };
    const before = await unEntries();
    expect(await refresher().refresh("un")).toBe("refused");
    expect(await unEntries()).toBe(before);
    const un = (await freshness()).find((f) => f.kind === "un");
    expect(un?.lastRefresh?.outcome).toBe("refused");
    expect(un?.lastRefresh?.error).toMatch(
      /this un list holds 2 entries where the current version holds 22; importing it would remove 20 \(90\.91 %\), more than the 10 % allowed/,
    );
    expect(un?.lastRefresh?.failures).toBe(3);
    expect(logged.at(-1)).toMatch(/^list un refresh refused, the list is kept as it was: /);
    // The publisher's full list again: imported or unchanged, and the failures are forgotten.
    served["/un.xml"] = { status: 200, body: UN };
    expect(await refresher().refresh("un")).toBe("unchanged");
    expect((await freshness()).find((f) => f.kind === "un")?.lastRefresh).toMatchObject({
      outcome: "unchanged",
      failures: 0,
      error: null,
    });
  });

  it("a list past its age is stale; ages and refreshes reach /readyz's details and GET /screening/lists", async () => {
    clock += 72 * HOUR;
    const aged = await freshness();
    expect(aged.every((f) => f.stale && (f.ageSeconds ?? 0) > 48 * 3600)).toBe(true);
    // The service reads the real clock: the lists it shows were imported a moment ago.
    const ready = await svc.app!.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    const lists = ready.json().lists as {
      kind: string;
      ageSeconds: number | null;
      stale: boolean;
      lastRefresh: { outcome: string } | null;
    }[];
    // The service's own settings schedule every public list with an official URL: those never loaded (this test's
    // store has no OFAC or SAT list) are stale, without an age.
    expect(
      lists.map((l) => [l.kind, l.stale, l.ageSeconds === null, l.lastRefresh?.outcome ?? null]),
    ).toEqual([
      ["ofac-sdn", true, true, null],
      ["un", false, false, "unchanged"],
      ["sat-69b", true, true, null],
      ["sanctions", false, false, "unchanged"],
    ]);
    const screening = await svc.app!.inject({
      url: "/v1/screening/lists",
      headers: auth(svc.project.keys.viewer),
    });
    expect(screening.statusCode).toBe(200);
    const data = screening.json().data;
    expect(data.lists).toEqual([expect.objectContaining({ kind: "un", entries: 22, stale: false })]);
    expect(data.refreshes.map((f: { kind: string }) => f.kind)).toEqual([
      "ofac-sdn",
      "un",
      "sat-69b",
      "sanctions",
    ]);
    // And the metric.
    const metrics = await svc.app!.inject({ url: "/metrics", headers: auth(svc.project.keys.admin) });
    const ages = metrics.body.split("\n").filter((line) => line.startsWith("vigia_list_age_seconds{"));
    expect(ages.map((line) => line.match(/kind="([^"]+)"/)?.[1])).toEqual(["un", "sanctions"]);
  });

  it("an import run under systemd or cron (stderr no terminal) writes timed progress lines and a last one", async () => {
    const written: string[] = [];
    const stream = { isTTY: false, write: (text: string) => written.push(text) > 0 };
    await importPersonListFiles(svc.database.db, "un", [path.join(FIXTURES, "un_consolidated.xml")], {
      progress: commandProgress("lists import un", { stream, logEveryMs: 0 }),
    });
    expect(written.length).toBeGreaterThanOrEqual(2);
    expect(written[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z lists import un: 22 rows, [\d,]+ rows\/s\n$/);
    expect(written.at(-1)).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z lists import un: done, 22 rows in \d+ s\n$/);
  });
});
