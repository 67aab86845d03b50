// Starts the real service in-process for a test file (real database, real fastify, `inject` or a real port)
// and gives it a project with one key per role.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createKey, createProject } from "../../src/keys/index.ts";
import { type Config, loadConfig } from "../../src/platform/config.ts";
import { type Service, type ServiceOptions, startService } from "../../src/service.ts";
import { testDatabase } from "./database.ts";

export const TEST_SECRET = "vW3q8Jr2xKp9LmN4tZb7Yc1Hd6Fg0Se5Ua8Qi2Oj3Rk";

/**
 * A chains file with no address outside this machine, so no test ever reaches the internet. (Test services also
 * turn public explorers off: a test that points a chain's `blockscout_url` at a stand-in and wants its histories
 * passes `VIGIA_PUBLIC_EXPLORERS: "true"` in `env`.)
 */
export function writeChainsFile(chains: unknown[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-chains-"));
  const file = path.join(dir, "chains.json");
  fs.writeFileSync(file, JSON.stringify(chains));
  return file;
}

export const LOCAL_CHAINS = [
  { id: 1, name: "Ethereum", currency_symbol: "ETH", explorer_url: "https://etherscan.io" },
  { id: 137, name: "Polygon PoS", currency_symbol: "POL" },
  { id: 31337, name: "Vigía devnet", currency_symbol: "ETH" },
  { id: 10, name: "Disabled chain", currency_symbol: "ETH", enabled: false },
  // Tron mainnet as built in, without its explorer: base58 at the edges, USDT pegged at USD 1.
  {
    id: 728126428,
    name: "Tron",
    kind: "tron",
    currency_symbol: "TRX",
    currency_decimals: 6,
    explorer_url: "https://tronscan.org",
    pegged_tokens: [{ address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", decimals: 6, usd: 1 }],
  },
];

export interface TestService extends Service {
  project: { id: number; keys: { admin: string; officer: string; developer: string; viewer: string } };
  /** Another project, for scoping tests. */
  other: { id: number; keys: { admin: string } };
  /** The PostgreSQL schema the service runs in (undefined on PGlite): a second service may share it. */
  schema: string | undefined;
  stop(): Promise<void>;
}

export async function startTestService(
  opts: { env?: Record<string, string>; chains?: unknown[]; service?: Partial<ServiceOptions> } = {},
): Promise<TestService> {
  const db = testDatabase();
  const config: Config = loadConfig({
    VIGIA_SECRET: TEST_SECRET,
    VIGIA_LOG_LEVEL: "silent",
    PORT: "0",
    VIGIA_CHAINS: writeChainsFile(opts.chains ?? LOCAL_CHAINS),
    // The contract suites send hundreds of bad keys from one address; the limit has its own test.
    VIGIA_AUTH_FAILURES_PER_MINUTE: "1000000",
    VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE: "1000000",
    // The chains' blockscout_url serves statistics only, unless a test turns this on for its stand-in.
    VIGIA_PUBLIC_EXPLORERS: "false",
    // The tests' integrators, list servers and explorers listen on 127.0.0.1: a test of the refusal sets "false".
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    ...opts.env,
  });
  config.dataDir = db.dataDir;
  const service = await startService(config, {
    http: true,
    workers: false,
    ...(db.schema ? { schema: db.schema } : {}),
    ...(db.startFrom ? { startFrom: db.startFrom } : {}),
    ...opts.service,
    // A job failed on purpose (the kill tests) runs again within a second, not after the production backoff.
    jobs: { retryDelayMaxSeconds: 1, ...opts.service?.jobs },
  });
  const actor = { kind: "cli" } as const;
  const main = await createProject(service.keys, { name: "Test project" }, actor);
  const developer = await createKey(service.keys, main.projectId, { label: "dev", role: "developer" }, actor);
  const viewer = await createKey(service.keys, main.projectId, { label: "viewer", role: "viewer" }, actor);
  const officer = await createKey(service.keys, main.projectId, { label: "officer", role: "officer" }, actor);
  const other = await createProject(service.keys, { name: "Other project" }, actor);
  return Object.assign(service, {
    project: {
      id: main.projectId,
      keys: { admin: main.key, officer: officer.key, developer: developer.key, viewer: viewer.key },
    },
    other: { id: other.projectId, keys: { admin: other.key } },
    schema: db.schema,
    async stop() {
      await service.close();
      await db.drop();
    },
  });
}

export const auth = (key: string) => ({ "x-api-key": `ApiKey ${key}` });
