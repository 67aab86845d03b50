// `vigia projects create --signing-scheme hmac-canonical` (docs/operations.md, "Projects and keys"): the real
// command, a child process, makes a project whose calls to the integrator are signed as the original service signs
// them, and prints its admin key, the scheme and the webhook secret (32 hex characters); the service then shows
// the same settings. Without the option nothing changes (`{projectId, key}`, Standard Webhooks); a scheme it does
// not know is refused with one line. On the embedded database (a data dir) or PostgreSQL (a schema) with
// DATABASE_URL: the command and the service share the store.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config.ts";
import { type Service, startService } from "../../src/service.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { auth, LOCAL_CHAINS, TEST_SECRET, writeChainsFile } from "../support/service.ts";
import { killAll, newcomerEnv, runVigia } from "./vigia-process.ts";

const target = testDatabase();
const dataDir = onPostgres ? "memory://" : fs.mkdtempSync(path.join(os.tmpdir(), "vigia-scheme-"));
afterAll(async () => {
  await killAll();
  await target.drop();
  if (!onPostgres) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The service on the test's store (a data dir, or a PostgreSQL schema). */
function start(): Promise<Service> {
  const config = loadConfig({
    VIGIA_SECRET: TEST_SECRET,
    VIGIA_LOG_LEVEL: "silent",
    PORT: "0",
    VIGIA_CHAINS: writeChainsFile(LOCAL_CHAINS),
    VIGIA_PUBLIC_EXPLORERS: "false",
    VIGIA_DATA_DIR: dataDir,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
  });
  return startService(config, {
    http: true,
    workers: false,
    ...(target.schema ? { schema: target.schema } : {}),
  });
}

/** A `vigia` command on the same store. */
function vigia(args: string[]) {
  const env: Record<string, string> = { VIGIA_SECRET: TEST_SECRET, VIGIA_LOG_LEVEL: "silent" };
  if (target.databaseUrl) {
    const url = new URL(target.databaseUrl);
    url.searchParams.set("options", `-c search_path=${target.schema}`);
    env.DATABASE_URL = url.toString();
  } else env.VIGIA_DATA_DIR = dataDir;
  return runVigia(args, newcomerEnv(env));
}

describe("vigia projects create --signing-scheme", () => {
  it("makes a project signed as the original service signs, and prints its key, scheme and secret", async () => {
    // PostgreSQL: the service makes the test's schema first; the embedded store: the command opens it alone.
    const early = onPostgres ? await start() : undefined;
    const canonical = await vigia([
      "projects",
      "create",
      "--name",
      "Moving in",
      "--signing-scheme",
      "hmac-canonical",
    ]);
    expect(canonical.code, canonical.stderr).toBe(0);
    const made = JSON.parse(canonical.stdout.trim());
    expect(Object.keys(made).sort()).toEqual(["key", "projectId", "signing_scheme", "webhook_secret"]);
    expect(made.signing_scheme).toBe("hmac-canonical");
    expect(made.webhook_secret).toMatch(/^[0-9a-f]{32}$/);

    const plain = await vigia(["projects", "create", "--name", "Standard"]);
    expect(plain.code, plain.stderr).toBe(0);
    const standard = JSON.parse(plain.stdout.trim());
    expect(Object.keys(standard).sort()).toEqual(["key", "projectId"]);

    const unknown = await vigia(["projects", "create", "--name", "X", "--signing-scheme", "hmac-sha1"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr.trim().split("\n")).toEqual([expect.stringMatching(/hmac-sha1/)]);

    const svc = early ?? (await start());
    try {
      const read = async (project: { projectId: number; key: string }) => {
        const res = await svc.app!.inject({
          url: `/v1/projects/${project.projectId}`,
          headers: auth(project.key),
        });
        expect(res.statusCode).toBe(200);
        return res.json().data;
      };
      expect(await read(made)).toMatchObject({
        name: "Moving in",
        signing_scheme: "hmac-canonical",
        webhook_secret: made.webhook_secret,
        previous_webhook_secret_until: null,
      });
      expect(await read(standard)).toMatchObject({
        name: "Standard",
        signing_scheme: "standard-webhooks",
        webhook_secret: expect.stringMatching(/^whsec_/),
      });
      // Its creation is in the audit trail (the scheme was set in the same transaction).
      const audit = await svc.app!.inject({
        url: `/v1/projects/${made.projectId}/audit`,
        headers: auth(made.key),
      });
      expect(audit.json().data.map((a: { action: string }) => a.action)).toContain("project.created");
    } finally {
      await svc.close();
    }
  }, 180_000);
});
