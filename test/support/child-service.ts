// The real service in a child process that a test starts (and may kill): its database from the environment the
// test sets, CHILD_DATABASE_URL + CHILD_SCHEMA (PostgreSQL) or CHILD_DATA_DIR (PGlite), and its chains from
// CHILD_CHAINS; no HTTP. Also `say`, the JSON line a child reports its progress with on stdout.
import { loadConfig } from "../../src/platform/config.ts";
import { type ServiceOptions, startService } from "../../src/service.ts";

export const say = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};

/** The service of a child process; `options` as startService's, HTTP off. */
export function startChildService(options: Partial<Omit<ServiceOptions, "http" | "schema">> = {}) {
  const env = process.env;
  const config = loadConfig({
    VIGIA_SECRET: "vW3q8Jr2xKp9LmN4tZb7Yc1Hd6Fg0Se5Ua8Qi2Oj3Rk",
    VIGIA_LOG_LEVEL: "warn",
    VIGIA_CHAINS: env.CHILD_CHAINS as string,
    // No child asks a chain's blockscout_url for histories (test/support/service.ts).
    VIGIA_PUBLIC_EXPLORERS: "false",
    // Its integrators listen on 127.0.0.1, as the parent's do (test/support/service.ts).
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    ...(env.CHILD_DATABASE_URL
      ? { DATABASE_URL: env.CHILD_DATABASE_URL }
      : { VIGIA_DATA_DIR: env.CHILD_DATA_DIR as string }),
  });
  return startService(config, {
    workers: false,
    ...options,
    http: false,
    ...(env.CHILD_SCHEMA ? { schema: env.CHILD_SCHEMA } : {}),
  });
}
