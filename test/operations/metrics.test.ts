// GET /metrics on the real service: Prometheus text, readable with an admin key or from an allowed address and by
// no one else; requests counted by route pattern (never the raw path), job queues, analysis durations, the pool
// on PostgreSQL; and docs/operations.md describes exactly the service's own metrics.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceMetrics } from "../../src/operations/index.ts";
import { JobQueue } from "../../src/platform/jobs/index.ts";
import { createRegistry, render } from "../../src/platform/metrics/index.ts";
import { onPostgres } from "../support/database.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_METRICS_ALLOW: "10.1.0.0/16, fd00::1" } });
});
afterAll(async () => {
  await svc?.stop();
});

const scrape = (headers: Record<string, string> = {}, remoteAddress?: string) =>
  svc.app!.inject({ url: "/metrics", headers, ...(remoteAddress ? { remoteAddress } : {}) });

/** The value of one sample of the exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const found = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (found) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("GET /metrics", () => {
  it("is refused without a key (401) and with a key below admin (403)", async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(auth(svc.project.keys.developer))).statusCode).toBe(403);
    expect((await scrape(auth("vk_not_a_key"))).json()).toMatchObject({
      success: false,
      error: "unauthorized",
    });
  });

  it("is served to an admin key, and without a key to an address of VIGIA_METRICS_ALLOW", async () => {
    const admin = await scrape(auth(svc.project.keys.admin));
    expect(admin.statusCode).toBe(200);
    expect(admin.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(admin.body).toContain("# TYPE vigia_http_request_duration_seconds histogram");
    expect((await scrape({}, "10.1.200.3")).statusCode).toBe(200);
    expect((await scrape({}, "::ffff:10.1.0.9")).statusCode).toBe(200);
    expect((await scrape({}, "fd00::1")).statusCode).toBe(200);
    expect((await scrape({}, "10.2.0.1")).statusCode).toBe(401);
  });

  it("counts requests by route pattern and status class, never by the raw path", async () => {
    const address = `0x${"ab".repeat(20)}`;
    const key = auth(svc.project.keys.viewer);
    for (let i = 0; i < 3; i++) await svc.app!.inject({ url: "/v1/chains", headers: key });
    await svc.app!.inject({ url: `/v1/risk/quick?address=${address}&chainId=1`, headers: key });
    await svc.app!.inject({ url: "/v1/no/such/route", headers: key });
    const text = (await scrape(auth(svc.project.keys.admin))).body;
    const count = (labels: Record<string, string>) =>
      sample(text, "vigia_http_request_duration_seconds_count", labels);
    expect(count({ method: "GET", route: "/v1/chains", status: "2xx" })).toBe(3);
    expect(count({ route: "/v1/risk/quick", status: "2xx" })).toBe(1);
    expect(count({ route: "unmatched", status: "4xx" })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(address);
    expect(sample(text, "vigia_analysis_duration_seconds_count", { kind: "quick" })).toBe(1);
  });

  it("shows each job queue's backlog", async () => {
    const text = (await scrape(auth(svc.project.keys.admin))).body;
    for (const queue of ["risk-analysis", "analysis-layer", "reports-monthly"])
      expect(sample(text, "vigia_jobs", { queue, state: "waiting" }), queue).toBe(0);
    expect(sample(text, "vigia_jobs_oldest_due_seconds", { queue: "risk-analysis" })).toBe(0);
  });

  it.skipIf(!onPostgres)("shows the database pool on PostgreSQL", async () => {
    const text = (await scrape(auth(svc.project.keys.admin))).body;
    expect(sample(text, "vigia_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    expect(sample(text, "vigia_db_pool_max_connections")).toBe(10);
  });
});

describe("job queue figures", () => {
  it("count waiting and due jobs and the oldest due one's wait, by queue", async () => {
    const jobs = new JobQueue(svc.database, {
      workers: false,
      schema: svc.jobs.schema,
      logLevel: "silent",
    });
    await jobs.define("metrics-probe");
    await jobs.send("metrics-probe", { n: 1 });
    await jobs.send("metrics-probe", { n: 2 }, { startAfterSeconds: 3600 });
    const registry = createRegistry();
    serviceMetrics(registry, jobs);
    await new Promise((r) => setTimeout(r, 1100));
    const { body } = await render(registry);
    expect(sample(body, "vigia_jobs", { queue: "metrics-probe", state: "waiting" })).toBe(2);
    expect(sample(body, "vigia_jobs", { queue: "metrics-probe", state: "due" })).toBe(1);
    expect(sample(body, "vigia_jobs_oldest_due_seconds", { queue: "metrics-probe" })).toBeGreaterThanOrEqual(
      1,
    );
    await jobs.stop();
  });

  it("webhook attempts are counted by outcome, failures apart", async () => {
    const registry = createRegistry();
    const metrics = serviceMetrics(registry, svc.jobs);
    for (const outcome of ["delivered", "delivered", "retrying", "failed"] as const)
      metrics.webhookAttempt(outcome);
    const { body } = await render(registry);
    expect(sample(body, "vigia_webhook_attempts_total", { outcome: "delivered" })).toBe(2);
    expect(sample(body, "vigia_webhook_attempts_total", { outcome: "retrying" })).toBe(1);
    expect(sample(body, "vigia_webhook_failures_total")).toBe(2);
  });
});

describe("docs/operations.md", () => {
  it("describes exactly the service's own metrics", async () => {
    const text = (await scrape(auth(svc.project.keys.admin))).body;
    const exposed = new Set(
      [...text.matchAll(/^# TYPE (vigia_\S+) /gm)]
        .map((m) => m[1] as string)
        .filter((name) => !/^vigia_(process|nodejs)_/.test(name)),
    );
    if (!onPostgres)
      for (const name of ["vigia_db_pool_connections", "vigia_db_pool_max_connections"]) exposed.add(name);
    // The indexer's figures appear where a process follows chains.
    for (const name of [
      "vigia_indexer_following",
      "vigia_indexer_head_lag_blocks",
      "vigia_indexer_consecutive_failures",
    ])
      exposed.add(name);
    const doc = fs.readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
    const section = doc.split(/^## Metrics$/m)[1]?.split(/^## /m)[0] ?? "";
    const documented = new Set([...section.matchAll(/^\| `(vigia_[a-z_]+)/gm)].map((m) => m[1] as string));
    expect([...documented].sort()).toEqual([...exposed].sort());
  });
});

describe("deploy/prometheus/alerts.yml", () => {
  it("is valid YAML whose alerts each name only metrics the service exposes, and are each documented", async () => {
    const { parse } = await import("yaml");
    const rules = parse(fs.readFileSync(path.join(ROOT, "deploy/prometheus/alerts.yml"), "utf8")) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const alerts = rules.groups.flatMap((g) => g.rules);
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    const doc = fs.readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
    const section = doc.split(/^## Metrics$/m)[1] ?? "";
    const documented = new Set([...section.matchAll(/^\| `(vigia_[a-z_]+)`/gm)].map((m) => m[1] as string));
    for (const { alert, expr } of alerts) {
      expect(section, alert).toContain(`| \`${alert}\``);
      for (const [name] of expr.matchAll(/vigia_[a-z_]+/g)) {
        const base = name.replace(/_(bucket|count|sum)$/, "");
        expect(documented.has(base), `${alert}: ${name}`).toBe(true);
      }
    }
  });
});
