// Moving a whole store (docs/operations.md, "Moving to PostgreSQL"): an embedded store with projects, keys, a
// monitored address and its transfers, a scan, an investigation, a notification and a Mexican report file is
// written by `vigia export` (the real command) and loaded by `vigia import-db` into PostgreSQL (under DATABASE_URL;
// into a fresh embedded data dir otherwise). Every table holds the same rows afterwards, the report file the same
// bytes; the API key, the webhook secret and the signed URL made before the move work on the new store; new rows
// get new ids. Under another secret the import re-seals what the old one sealed. A store that holds data, or a file
// cut short, is refused with nothing written.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { CompiledQuery, type Kysely } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueue } from "../../src/integrator/index.ts";
import { createKey, createProject } from "../../src/keys/index.ts";
import { storeTables } from "../../src/operations/dump/catalog.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { previousSecretEntry } from "../../src/platform/crypto/secrets.ts";
import { openDatabase } from "../../src/platform/db/open.ts";
import { verifyAudit } from "../../src/projects/index.ts";
import type { DB } from "../../src/schema.ts";
import { type Service, startService } from "../../src/service.ts";
import { newcomerEnv, runVigia } from "../process/vigia-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, LOCAL_CHAINS, writeChainsFile } from "../support/service.ts";
import { marchReport } from "./support/mexican-report.ts";

const NOW = Date.parse("2026-04-02T12:00:00Z");
const ETH = 10n ** 18n;
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-move-"));
  dirs.push(dir);
  return dir;
};
const targets: ReturnType<typeof testDatabase>[] = [];
afterAll(async () => {
  for (const t of targets) await t.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Where a store lives: an embedded data dir, or a PostgreSQL schema. */
interface Place {
  dataDir: string;
  database?: ReturnType<typeof testDatabase>;
}

const embedded = (): Place => ({ dataDir: tempDir() });
/** A new, empty store: a fresh PostgreSQL schema (made, as an operator makes the database), or a data dir. */
async function postgresOrEmbedded(): Promise<Place> {
  if (!onPostgres) return embedded();
  const database = testDatabase();
  targets.push(database);
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${database.schema}`);
  await client.end();
  return { dataDir: "memory://", database };
}

async function start(place: Place, env: Record<string, string> = {}): Promise<Service> {
  const config = loadConfig({
    VIGIA_LOG_LEVEL: "silent",
    PORT: "0",
    VIGIA_CHAINS: writeChainsFile(LOCAL_CHAINS),
    VIGIA_DATA_DIR: place.dataDir,
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    ...(place.database?.databaseUrl ? { DATABASE_URL: place.database.databaseUrl } : {}),
    ...env,
  });
  return startService(config, {
    http: true,
    workers: false,
    ...(place.database?.schema ? { schema: place.database.schema } : {}),
    clock: () => NOW,
  });
}

function commandEnv(place: Place, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  if (!place.database)
    return newcomerEnv({ VIGIA_DATA_DIR: place.dataDir, VIGIA_LOG_LEVEL: "silent", ...env });
  const url = new URL(place.database.databaseUrl as string);
  url.searchParams.set("options", `-c search_path=${place.database.schema}`);
  return newcomerEnv({ DATABASE_URL: url.toString(), VIGIA_LOG_LEVEL: "silent", ...env });
}

/** Every row of every table of the store, as text in key order, by table. */
async function contents(svc: { database: { db: unknown } }): Promise<Record<string, string[]>> {
  const db = svc.database.db as Kysely<unknown>;
  await db.executeQuery(CompiledQuery.raw("SET TIME ZONE 'UTC'", []));
  const out: Record<string, string[]> = {};
  for (const table of await storeTables(db)) {
    const order = table.key.map((k) => `"${k.name}"`).join(", ");
    const { rows } = await db.executeQuery<{ row: string }>(
      CompiledQuery.raw(`SELECT to_jsonb(t)::text AS row FROM "${table.name}" t ORDER BY ${order}`, []),
    );
    out[table.name] = rows.map((r) => r.row);
  }
  return out;
}

interface Source {
  place: Place;
  secret: string;
  projectId: number;
  adminKey: string;
  viewerKey: string;
  webhookSecret: string;
  reportPath: string;
  signedUrl: string;
  reportBytes: Buffer;
  rows: Record<string, string[]>;
  exportFile: string;
}

let source: Source;

beforeAll(async () => {
  const place = embedded();
  const svc = await start(place);
  try {
    const app = svc.app!;
    const { projectId, key } = await createProject(svc.keys, { name: "Moving" }, { kind: "cli" });
    const viewer = await createKey(svc.keys, projectId, { label: "ops", role: "viewer" }, { kind: "cli" });
    const registered = await app.inject({
      method: "POST",
      url: `/v1/projects/${projectId}/addresses`,
      headers: auth(key),
      payload: { address: addr(1), chainId: 31337, foreign_user_id: "u-1" },
    });
    expect(registered.statusCode).toBe(201);
    const chain = new MonitoredChain(svc.database.db, 31337);
    await chain.block(new Date("2026-03-01T12:00:00Z"), []);
    await chain.block(new Date("2026-03-02T12:00:00Z"), [
      { from: addr(2), to: addr(1), value: 3n * ETH },
      { from: addr(1), to: addr(3), value: ETH },
    ]);
    const scan = await app.inject({
      method: "POST",
      url: `/v1/projects/${projectId}/addresses/scan-risk`,
      headers: auth(key),
      payload: { addresses: [{ address: addr(1), chainId: "31337" }], maxDepth: 2 },
    });
    expect(scan.statusCode).toBe(200);
    const investigation = await app.inject({
      method: "POST",
      url: `/v1/projects/${projectId}/investigations`,
      headers: auth(key),
      payload: { name: "move", wallet: addr(1), chainId: 31337, maxDepth: 2 },
    });
    expect(investigation.statusCode).toBe(201);
    await enqueue(
      svc.database.db,
      { projectId, type: "notification", body: { hello: "world" } },
      new Date(NOW),
    );
    // Mexico's report of March, and the integrator's URL (the integration settings travel too).
    const { reportPath, signedUrl } = await marchReport(app, projectId, key, {
      integration_url: "http://127.0.0.1:9/hooks",
    });
    const fetched = await app.inject({ url: new URL(signedUrl).pathname + new URL(signedUrl).search });
    expect(fetched.statusCode).toBe(200);
    const project = await app.inject({ url: `/v1/projects/${projectId}`, headers: auth(key) });
    source = {
      place,
      secret: fs.readFileSync(path.join(place.dataDir, "secret"), "utf8").trim(),
      projectId,
      adminKey: key,
      viewerKey: viewer.key,
      webhookSecret: project.json().data.webhook_secret,
      reportPath,
      signedUrl,
      reportBytes: fetched.rawPayload,
      rows: {},
      exportFile: path.join(tempDir(), "store.json.gz"),
    };
  } finally {
    await svc.close();
  }
  // As the stopped service left it (its close writes the keys' last use).
  const stopped = await openDatabase({ dataDir: place.dataDir });
  try {
    source.rows = await contents({ database: stopped });
  } finally {
    await stopped.close();
  }
  for (const table of [
    "projects",
    "api_keys",
    "monitored_addresses",
    "transfers",
    "analyses",
    "investigations",
    "notifications",
    "reports",
  ])
    expect(source.rows[table]?.length, table).toBeGreaterThan(0);

  const exported = await runVigia(["export", source.exportFile], commandEnv(place), 120_000);
  expect(exported.code, exported.stderr).toBe(0);
  const summary = JSON.parse(exported.stdout.trim());
  expect(summary.tables.transfers).toBe(source.rows.transfers?.length);
  expect(summary.files).toBe(1);
  expect(exported.stderr).toMatch(/^transfers: \d+ rows$/m);
  expect((fs.statSync(source.exportFile).mode & 0o777).toString(8)).toBe("600");
}, 180_000);

async function download(svc: Service, signedUrl: string) {
  const url = new URL(signedUrl);
  return svc.app!.inject({ url: `${url.pathname}${url.search}` });
}

/** The copied viewer key authenticates, and the webhook secret reads as before. */
async function expectKeysWork(svc: Service): Promise<void> {
  expect((await svc.app!.inject({ url: "/v1/chains", headers: auth(source.viewerKey) })).statusCode).toBe(
    200,
  );
  const project = await svc.app!.inject({
    url: `/v1/projects/${source.projectId}`,
    headers: auth(source.adminKey),
  });
  expect(project.json().data.webhook_secret).toBe(source.webhookSecret);
}

describe("vigia export, then vigia import-db", () => {
  let target: Place;
  beforeAll(async () => {
    target = await postgresOrEmbedded();
  });

  it("keeps every record, the files, and keys, webhook secrets and signed URLs working", async () => {
    const env: Record<string, string> = target.database ? { VIGIA_SECRET: source.secret } : {};
    const imported = await runVigia(["import-db", source.exportFile], commandEnv(target, env), 120_000);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout.trim())).toMatchObject({ files: 1, resealed: 0, secret: "kept" });

    const svc = await start(target, env);
    try {
      const rows = await contents(svc);
      expect(Object.keys(rows).sort()).toEqual(Object.keys(source.rows).sort());
      for (const [table, expected] of Object.entries(source.rows))
        expect(rows[table], table).toEqual(expected);

      await expectKeysWork(svc);
      const file = await download(svc, source.signedUrl);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(source.reportBytes)).toBe(true);

      // New rows get ids past the copied ones.
      const created = await svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${source.projectId}/keys`,
        headers: auth(source.adminKey),
        payload: { label: "after the move", role: "viewer" },
      });
      expect(created.statusCode).toBe(201);
      const maxCopied = Math.max(...(source.rows.api_keys ?? []).map((r) => JSON.parse(r).id as number));
      expect(created.json().data).toBeGreaterThan(maxCopied);
      // The audit's hash chains came across whole, and the new key's entry links onto them.
      const audit = await verifyAudit(svc.database.db as Kysely<DB>);
      expect(audit).toMatchObject({ firstBroken: null, problems: [] });
    } finally {
      await svc.close();
    }
  }, 180_000);

  it("refuses a store that already holds data, changing nothing", async () => {
    const env: Record<string, string> = target.database ? { VIGIA_SECRET: source.secret } : {};
    const again = await runVigia(["import-db", source.exportFile], commandEnv(target, env), 120_000);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already holds data/);
  }, 120_000);
});

describe("an import under another secret", () => {
  it("re-seals what the exported secret sealed; old signed URLs need it as a previous secret", async () => {
    const target = await postgresOrEmbedded();
    const other = crypto.randomBytes(32).toString("base64");
    const imported = await runVigia(
      ["import-db", source.exportFile],
      commandEnv(target, { VIGIA_SECRET: other }),
      120_000,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout.trim()).resealed).toBeGreaterThanOrEqual(3);
    expect(imported.stderr).toMatch(/re-sealed with it/);

    const svc = await start(target, { VIGIA_SECRET: other });
    try {
      await expectKeysWork(svc);
      expect((await download(svc, source.signedUrl)).statusCode).toBe(403);
    } finally {
      await svc.close();
    }
    // The old secret as a previous one, with the time of the move (files written before it are still its).
    const withPrevious = await start(target, {
      VIGIA_SECRET: other,
      VIGIA_SECRET_PREVIOUS: previousSecretEntry(source.secret, NOW),
    });
    try {
      expect((await download(withPrevious, source.signedUrl)).statusCode).toBe(200);
    } finally {
      await withPrevious.close();
    }
  }, 180_000);
});

describe("a damaged export", () => {
  it("is refused, and nothing is imported", async () => {
    const whole = zlib.gunzipSync(fs.readFileSync(source.exportFile)).toString("utf8").split("\n");
    const cut = path.join(tempDir(), "cut.json.gz");
    fs.writeFileSync(cut, zlib.gzipSync(whole.slice(0, Math.floor(whole.length / 2)).join("\n")));
    const target = await postgresOrEmbedded();
    const env: Record<string, string> = target.database ? { VIGIA_SECRET: source.secret } : {};
    const run = await runVigia(["import-db", cut], commandEnv(target, env), 120_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ends inside table|incomplete/);
    const svc = await start(target, env);
    try {
      const rows = await contents(svc);
      // Nothing of the export: an embedded store's first start adds only its own demo project.
      expect(rows.transfers).toEqual([]);
      expect(rows.reports).toEqual([]);
    } finally {
      await svc.close();
    }

    const notExport = path.join(tempDir(), "not.json.gz");
    fs.writeFileSync(notExport, zlib.gzipSync('{"hello":1}\n'));
    const refused = await runVigia(["import-db", notExport], commandEnv(target, env), 60_000);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not a Vigía export/);
  }, 180_000);
});
