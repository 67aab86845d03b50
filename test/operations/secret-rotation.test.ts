// Rotating the server secret (docs/operations.md, "Rotating the secret") on the real service, restarted on the same
// store: with VIGIA_SECRET new and VIGIA_SECRET_PREVIOUS old, API keys, the webhook secret and a signed URL made
// before keep working; `vigia secret reseal` (the real command, a child process) re-seals every stored value with
// the new secret; after it, without the old secret, keys and webhook secrets still work (a signed URL made under
// the old one does not: it needed the old secret, kept for its 30 days). On the embedded database `vigia secret
// rotate` does the whole rotation on a stopped service. The rotation retires the old secret: given with its rotation
// time (`old@<ISO time>`, as `vigia secret rotate` records it), a URL it signs is served only if it was signed
// before that time, expires within the 30 days after it, and names a file written before it: one forged with the old
// secret for the year 2100, or for a file written after the rotation, is refused; without a time, none is served.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createProject } from "../../src/keys/index.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { deriveKeys, parsePreviousSecret, previousSecretEntry } from "../../src/platform/crypto/secrets.ts";
import { signPath } from "../../src/platform/crypto/signed-url.ts";
import { type Service, startService } from "../../src/service.ts";
import { newcomerEnv, runVigia } from "../process/vigia-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { auth, LOCAL_CHAINS, writeChainsFile } from "../support/service.ts";
import { marchReport } from "./support/mexican-report.ts";

const OLD = crypto.randomBytes(32).toString("base64");
const NEW = crypto.randomBytes(32).toString("base64");
const NOW = Date.parse("2026-04-02T12:00:00Z");

const target = testDatabase();
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-rotation-"));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await target.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The service on this test's store (a PostgreSQL schema, or a PGlite data dir), with the given secrets. */
async function start(dataDir: string, env: Record<string, string>, now = NOW): Promise<Service> {
  const config = loadConfig({
    VIGIA_LOG_LEVEL: "silent",
    PORT: "0",
    VIGIA_CHAINS: writeChainsFile(LOCAL_CHAINS),
    VIGIA_DATA_DIR: dataDir,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    ...env,
  });
  return startService(config, {
    http: true,
    workers: false,
    ...(target.schema ? { schema: target.schema } : {}),
    clock: () => now,
  });
}

/** The environment of a `vigia` command on the same store. */
function commandEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  if (!target.databaseUrl) return newcomerEnv({ VIGIA_DATA_DIR: dataDir, VIGIA_LOG_LEVEL: "silent", ...env });
  const url = new URL(target.databaseUrl);
  url.searchParams.set("options", `-c search_path=${target.schema}`);
  return newcomerEnv({ DATABASE_URL: url.toString(), VIGIA_LOG_LEVEL: "silent", ...env });
}

interface Made {
  projectId: number;
  key: string;
  webhookSecret: string;
  reportPath: string;
  signedUrl: string;
}

/** A project with its admin key, its webhook secret, and March 2026's Mexican report (an informe en ceros). */
async function makeProject(svc: Service): Promise<Made> {
  const { projectId, key } = await createProject(svc.keys, { name: "Rotation" }, { kind: "cli" });
  const { reportPath, signedUrl } = await marchReport(svc.app!, projectId, key);
  return {
    projectId,
    key,
    webhookSecret: await webhookSecret(svc, projectId, key),
    reportPath,
    signedUrl,
  };
}

async function webhookSecret(svc: Service, projectId: number, key: string): Promise<string> {
  const res = await svc.app!.inject({ url: `/v1/projects/${projectId}`, headers: auth(key) });
  expect(res.statusCode).toBe(200);
  return res.json().data.webhook_secret;
}

const keyWorks = async (svc: Service, key: string) =>
  (await svc.app!.inject({ url: "/v1/chains", headers: auth(key) })).statusCode === 200;

const YEAR_2100 = Date.parse("2100-01-01T00:00:00Z");

/**
 * A URL for the report file signed with `secret`, expiring at `expiresAt`: what someone holding it can mint, with
 * the signing time they choose (by default, the rotation's instant: as early as a previous secret is allowed).
 */
const forged = (secret: string, reportPath: string, expiresAt: number, signedAt = NOW) =>
  `http://vigia.test/v1/files/${reportPath}?${signPath(deriveKeys(secret), reportPath, expiresAt, signedAt)}`;

async function download(svc: Service, signedUrl: string): Promise<number> {
  const url = new URL(signedUrl);
  return (await svc.app!.inject({ url: `${url.pathname}${url.search}` })).statusCode;
}

/** Every sealed value of the store, as stored. */
async function sealedValues(svc: Service): Promise<string[]> {
  const { rows } = await sql<{ v: string }>`
    SELECT key_enc AS v FROM api_keys
    UNION ALL SELECT webhook_secret_enc FROM integrations
    UNION ALL SELECT previous_webhook_secret_enc FROM integrations WHERE previous_webhook_secret_enc IS NOT NULL
    UNION ALL SELECT profile_enc FROM reports WHERE profile_enc IS NOT NULL`.execute(svc.database.db);
  return rows.map((r) => r.v);
}

describe("rotating VIGIA_SECRET", () => {
  const dataDir = onPostgres ? "memory://" : tempDir();
  let made: Made;

  it("keeps keys, webhook secrets and signed URLs working with the old secret given as previous", async () => {
    const before = await start(dataDir, { VIGIA_SECRET: OLD });
    try {
      made = await makeProject(before);
      expect(await download(before, made.signedUrl)).toBe(200);
    } finally {
      await before.close();
    }

    const during = await start(dataDir, {
      VIGIA_SECRET: NEW,
      VIGIA_SECRET_PREVIOUS: previousSecretEntry(OLD, NOW),
    });
    try {
      expect(await keyWorks(during, made.key)).toBe(true);
      expect(await webhookSecret(during, made.projectId, made.key)).toBe(made.webhookSecret);
      expect(await download(during, made.signedUrl)).toBe(200);

      // `vigia secret reseal`, beside the running service.
      const run = await runVigia(
        ["secret", "reseal"],
        commandEnv(dataDir, { VIGIA_SECRET: NEW, VIGIA_SECRET_PREVIOUS: OLD }),
      );
      expect(run.code, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout.trim().split("\n").at(-1) as string);
      const newId = deriveKeys(NEW).id;
      expect(summary).toMatchObject({ keyId: newId, previousKeyIds: [deriveKeys(OLD).id], unreadable: 0 });
      expect(summary.resealed).toBeGreaterThanOrEqual(2); // at least this project's key and webhook secret
      expect(run.stderr).toMatch(/re-sealed api_keys\.key_enc: \d+/);
      for (const value of await sealedValues(during)) expect(value.startsWith(`v2.${newId}.`)).toBe(true);

      // Running it again finds nothing left to do.
      const again = await runVigia(["secret", "reseal"], commandEnv(dataDir, { VIGIA_SECRET: NEW }));
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout.trim()).resealed).toBe(0);
    } finally {
      await during.close();
    }
  }, 120_000);

  it("retires the old secret: its URLs are served up to the rotation time plus 30 days, not past it", async () => {
    {
      const retired = await start(dataDir, {
        VIGIA_SECRET: NEW,
        VIGIA_SECRET_PREVIOUS: previousSecretEntry(OLD, NOW),
      });
      try {
        // The URL handed out before the rotation (expiring 30 days after it): served.
        expect(await download(retired, made.signedUrl)).toBe(200);
        // One minted with the leaked old secret for the year 2100, or one day past the window: refused.
        expect(await download(retired, forged(OLD, made.reportPath, YEAR_2100))).toBe(403);
        expect(await download(retired, forged(OLD, made.reportPath, NOW + 31 * 24 * 3600_000))).toBe(403);
        // Within the window it is still the old secret's to vouch for.
        expect(await download(retired, forged(OLD, made.reportPath, NOW + 24 * 3600_000))).toBe(200);
        // Signed after the rotation: refused whatever it names.
        const late = NOW + 3600_000;
        expect(await download(retired, forged(OLD, made.reportPath, late + 3600_000, late))).toBe(403);
      } finally {
        await retired.close();
      }
    }
    // Without a rotation time the old secret's window can't be dated: it vouches for no URL, not even the genuine
    // one handed out before (keys and sealed values still work: the first test rotated with it).
    const untimed = await start(dataDir, { VIGIA_SECRET: NEW, VIGIA_SECRET_PREVIOUS: OLD });
    try {
      expect(await download(untimed, made.signedUrl)).toBe(403);
      expect(await keyWorks(untimed, made.key)).toBe(true);
    } finally {
      await untimed.close();
    }
  }, 60_000);

  it("the old secret grants no file written after the rotation, however its URL is dated", async () => {
    // A day after the rotation, a new file is written (another project's March report).
    const later = await start(
      dataDir,
      { VIGIA_SECRET: NEW, VIGIA_SECRET_PREVIOUS: previousSecretEntry(OLD, NOW) },
      NOW + 24 * 3600_000,
    );
    try {
      const { projectId, key } = await createProject(later.keys, { name: "After" }, { kind: "cli" });
      const { reportPath, signedUrl } = await marchReport(later.app!, projectId, key);
      // Its own URL, signed with the new secret: served.
      expect(await download(later, signedUrl)).toBe(200);
      // Minted with the old secret and dated to the rotation, within its window: refused, as for a file that
      // does not exist; the file written before the rotation is still the old secret's to vouch for.
      expect(await download(later, forged(OLD, reportPath, NOW + 2 * 24 * 3600_000))).toBe(403);
      expect(await download(later, forged(OLD, `${reportPath}.none`, NOW + 2 * 24 * 3600_000))).toBe(403);
      expect(await download(later, forged(OLD, made.reportPath, NOW + 2 * 24 * 3600_000))).toBe(200);
    } finally {
      await later.close();
    }
  }, 60_000);

  it("after the reseal, works without the old secret; only the old signed URL needs it", async () => {
    const after = await start(dataDir, { VIGIA_SECRET: NEW });
    try {
      expect(await keyWorks(after, made.key)).toBe(true);
      expect(await webhookSecret(after, made.projectId, made.key)).toBe(made.webhookSecret);
      expect(await download(after, made.signedUrl)).toBe(403);
      const fresh = await after.app!.inject({
        url: `/v1/reports/download?path=${encodeURIComponent(made.reportPath)}`,
        headers: auth(made.key),
      });
      expect(await download(after, fresh.json().data.signedUrl)).toBe(200);
    } finally {
      await after.close();
    }
  }, 60_000);

  it("a value sealed under a secret the process was not given is reported, and the command fails", async () => {
    const run = await runVigia(
      ["secret", "reseal"],
      commandEnv(dataDir, { VIGIA_SECRET: crypto.randomBytes(32).toString("base64") }),
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout.trim()).unreadable).toBeGreaterThan(0);
    expect(run.stderr).toMatch(
      /sealed by a secret this process was not given: add it to VIGIA_SECRET_PREVIOUS/,
    );
  }, 60_000);
});

describe.skipIf(onPostgres)("`vigia secret rotate` on the embedded database", () => {
  it("replaces the generated secret, keeps the old one in secret.previous, and re-seals the store", async () => {
    const dataDir = tempDir();
    const before = await start(dataDir, {});
    let made: Made;
    try {
      made = await makeProject(before);
      // Refused while the service owns the data dir.
      const refused = await runVigia(["secret", "rotate"], commandEnv(dataDir, {}));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/a Vigía service is running on this data dir/);
    } finally {
      await before.close();
    }
    const oldSecret = fs.readFileSync(path.join(dataDir, "secret"), "utf8").trim();

    const run = await runVigia(["secret", "rotate"], commandEnv(dataDir, {}));
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1) as string);
    const newSecret = fs.readFileSync(path.join(dataDir, "secret"), "utf8").trim();
    expect(newSecret).not.toBe(oldSecret);
    // The old secret, with the time of the rotation.
    const kept = parsePreviousSecret(fs.readFileSync(path.join(dataDir, "secret.previous"), "utf8").trim());
    expect(kept.secret).toBe(oldSecret);
    expect(Math.abs((kept.retiredAt ?? 0) - Date.now())).toBeLessThan(120_000);
    expect((fs.statSync(path.join(dataDir, "secret.previous")).mode & 0o777).toString(8)).toBe("600");
    expect(summary).toMatchObject({ rotated: true, keyId: deriveKeys(newSecret).id, unreadable: 0 });

    const after = await start(dataDir, {});
    try {
      expect(await keyWorks(after, made.key)).toBe(true);
      expect(await webhookSecret(after, made.projectId, made.key)).toBe(made.webhookSecret);
      expect(await download(after, made.signedUrl)).toBe(200);
      // A URL the old secret signs for 2100 is refused: the rotation retired it.
      expect(await download(after, forged(oldSecret, made.reportPath, YEAR_2100))).toBe(403);
      for (const value of await sealedValues(after))
        expect(value.startsWith(`v2.${deriveKeys(newSecret).id}.`)).toBe(true);
    } finally {
      await after.close();
    }
  }, 120_000);

  it("is refused where the secret comes from the environment", async () => {
    const run = await runVigia(["secret", "rotate"], commandEnv(tempDir(), { VIGIA_SECRET: NEW }));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/set VIGIA_SECRET to a new secret and VIGIA_SECRET_PREVIOUS/);
  }, 60_000);
});
