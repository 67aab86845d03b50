// What the analysis verbs need: the store, the chains the service knows, the durable job queue, and optional
// expansion and risk-model overrides (tests, benchmarks).
import type { Kysely } from "kysely";
import type { ChainRegistry } from "../chains/registry.ts";
import type { JobQueue } from "../platform/jobs/index.ts";
import type { RiskConfig } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { ExpansionOverrides } from "./graph/index.ts";

export interface AnalysisContext {
  db: Kysely<DB>;
  registry: ChainRegistry;
  jobs: JobQueue;
  expansion?: ExpansionOverrides;
  risk?: RiskConfig;
}
