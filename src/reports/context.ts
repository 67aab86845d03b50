// What the reports feature needs from the rest of the service, given by the composition root (service.ts).
import type { Kysely } from "kysely";
import type pino from "pino";
import type { ChainRegistry } from "../chains/index.ts";
import type { ProfileReader } from "../integrator/index.ts";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import type { FileStore } from "../platform/storage/index.ts";
import type { DB } from "../schema.ts";

export interface ReportsContext {
  db: Kysely<DB>;
  /** seals the profiles a file was built from, and signs the files' URLs */
  serverKeys: ServerKeys;
  registry: ChainRegistry;
  store: FileStore;
  profiles: ProfileReader;
  /** the absolute base of signed URLs (VIGIA_PUBLIC_URL) */
  publicUrl: string;
  now: () => number;
  /** where a file that could not be written is logged (at error level) */
  log?: pino.Logger;
  /** counts each file that could not be written (vigia_report_failures_total) */
  countFailure?: (countryCode: string, reason: string) => void;
  /** counts a step of the urgent avisos' loop that failed (vigia_worker_step_failures_total) */
  countLoopFailure?: (loop: string) => void;
}
