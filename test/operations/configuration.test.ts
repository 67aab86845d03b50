// The configuration reference: docs/operations.md lists exactly the variables loadConfig reads, with the defaults
// CONFIG_VARIABLES gives, and every invalid value is named in one error (a start fails with the whole list).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, loadConfig } from "../../src/platform/config.ts";
import { TEST_SECRET } from "../support/service.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The rows of the table under "## Configuration" in docs/operations.md: variable -> default. */
function documentedVariables(): Map<string, string> {
  const text = fs.readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
  const section = text.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? "";
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const name = /^`([A-Z_]+)`$/.exec(cells[1] ?? "")?.[1];
    if (name) rows.set(name, (cells[2] ?? "").replace(/`/g, ""));
  }
  return rows;
}

describe("the configuration reference", () => {
  it("docs/operations.md lists every variable once, with its default", () => {
    const documented = documentedVariables();
    expect([...documented.keys()].sort()).toEqual(CONFIG_VARIABLES.map((v) => v.name).sort());
    for (const v of CONFIG_VARIABLES) expect(documented.get(v.name), v.name).toBe(v.default);
  });

  it("loadConfig reads only the variables of the reference, and every one of them", () => {
    const read = new Set<string>();
    const env = new Proxy({} as NodeJS.ProcessEnv, {
      get(_target, name) {
        if (typeof name === "string") read.add(name);
        return undefined;
      },
    });
    loadConfig(env);
    const known = new Set(CONFIG_VARIABLES.map((v) => v.name));
    // LOG_LEVEL is the fallback of VIGIA_LOG_LEVEL, documented beside it.
    expect([...read].filter((name) => !known.has(name))).toEqual(["LOG_LEVEL"]);
    expect([...known].filter((name) => !read.has(name))).toEqual([]);
  });

  it("the defaults are the documented ones", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      dbPoolSize: 10,
      host: "127.0.0.1",
      port: 8080,
      publicUrl: "http://127.0.0.1:8080",
      rateLimitPerMinute: 6000,
      heavyRateLimitPerMinute: 600,
      authFailuresPerMinute: 60,
      statementTimeoutMs: 60_000,
      logLevel: "info",
      allowPrivateOutbound: false,
      metricsAllow: [],
      metricsPort: undefined,
      previousSecrets: [],
      publicExplorers: true,
    });
    expect(config.dataDir).toBe(path.resolve("./data"));
  });

  it("VIGIA_PUBLIC_EXPLORERS: true or on, false or off", () => {
    for (const [value, on] of [
      ["true", true],
      ["on", true],
      ["false", false],
      ["off", false],
    ] as const) {
      expect(loadConfig({ VIGIA_PUBLIC_EXPLORERS: value }).publicExplorers, value).toBe(on);
    }
  });
});

const INVALID: Record<string, string> = {
  DATABASE_URL: "mysql://root@localhost/db",
  VIGIA_DB_POOL_SIZE: "0",
  VIGIA_JOBS_SCHEMA: "Jobs; DROP",
  PORT: "80a",
  VIGIA_PUBLIC_URL: "ftp://example.org",
  VIGIA_SECRET: "short",
  VIGIA_DEVNET: "yes",
  VIGIA_PUBLIC_EXPLORERS: "maybe",
  VIGIA_RATE_LIMIT_PER_MINUTE: "-5",
  VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE: "1.5",
  VIGIA_AUTH_FAILURES_PER_MINUTE: "many",
  VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT: "x",
  VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT: "-1",
  VIGIA_REQUEST_DEADLINE_MS: "0",
  VIGIA_STATEMENT_TIMEOUT_MS: "soon",
  VIGIA_ANALYSIS_RETENTION_DAYS: "0",
  VIGIA_CHAIN_STATS_TTL_SECONDS: "1e3",
  VIGIA_UPSTREAM_TIMEOUT_MS: "fast",
  VIGIA_ALLOW_PRIVATE_OUTBOUND: "maybe",
  VIGIA_FILE_STORE: "s3",
  VIGIA_LLM_BASE_URL: "not a url",
  VIGIA_LLM_TIMEOUT_MS: "-1",
  VIGIA_LLM_REPORTS_PER_HOUR: "lots",
  VIGIA_WALLET_REPORT_TTL_SECONDS: "day",
  VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR: "often",
  VIGIA_METRICS_ALLOW: "10.0.0.0/8,prometheus.local",
  VIGIA_METRICS_PORT: "70000",
  VIGIA_LOG_LEVEL: "loud",
};

describe("invalid values", () => {
  it.each(Object.entries(INVALID))("%s=%s is refused with a message naming it", (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toHaveLength(1);
    expect((error as ConfigError).problems[0]).toContain(name);
  });

  it("reports every invalid value at once", () => {
    let error: unknown;
    try {
      loadConfig(INVALID);
    } catch (e) {
      error = e;
    }
    const problems = (error as ConfigError).problems;
    for (const name of Object.keys(INVALID))
      expect(
        problems.some((p) => p.includes(name)),
        name,
      ).toBe(true);
  });

  it("a model is required with an LLM endpoint, and a current secret with previous ones", () => {
    expect(() => loadConfig({ VIGIA_LLM_BASE_URL: "http://127.0.0.1:9/v1" })).toThrow(/VIGIA_LLM_MODEL/);
    expect(() => loadConfig({ VIGIA_SECRET_PREVIOUS: TEST_SECRET })).toThrow(/VIGIA_SECRET_PREVIOUS needs/);
    expect(() => loadConfig({ VIGIA_SECRET: TEST_SECRET, VIGIA_SECRET_PREVIOUS: "weak" })).toThrow(
      /VIGIA_SECRET_PREVIOUS: each secret must carry/,
    );
  });

  it("never prints a database password", () => {
    expect(() => loadConfig({ DATABASE_URL: "mysql://root:hunter2@db/x" })).toThrow(/root:\*\*\*@/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://root:hunter2@db/x" })).not.toThrow(/hunter2/);
  });

  it("`vigia serve` stops before starting, with one line naming every invalid variable", () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, "bin/vigia.js"), "serve"], {
      env: { PATH: process.env.PATH, PORT: "eighty", VIGIA_LOG_LEVEL: "loud", VIGIA_DATA_DIR: "memory://" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^vigia: invalid configuration: PORT .*; VIGIA_LOG_LEVEL /);
  });
});
