// The investigations room in a running service: its routes and, with the demo devnet and the chain followers, the
// demo project's investigation of the scenario's mixing case (`npm start` prints its viewer link).
import type { AnalysisContext } from "../analysis/index.ts";
import { DEVNET_CHAIN_ID } from "../chains/index.ts";
import { transfersOn } from "../ledger/index.ts";
import type { Base } from "../platform/assembly.ts";
import { demoProjectId } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { createInvestigation } from "./create.ts";
import { registerInvestigationRoutes } from "./routes.ts";

/** The demo devnet, as far as its investigation needs it. */
export interface DemoDevnet {
  /** Settles once the scenario is on its chain, with how many transfers it wrote (undefined on failure). */
  ready: Promise<{ transfers: number } | undefined>;
  addresses: readonly { address: string; pattern?: string | undefined }[];
}

export interface InvestigationsNeeds {
  analysis: { context: AnalysisContext };
  /** The demo devnet when this process runs it and follows its chain. */
  demo: DemoDevnet | undefined;
}

export interface InvestigationsWiring {
  /** The demo project's investigation of the mixing case, once made or found; undefined without the demo. */
  demoInvestigation: Promise<{ projectId: number; investigationId: string } | undefined> | undefined;
}

const DEMO_INVESTIGATION = "Demo: the mixing case";
/** The longest wait for the indexer to hold the scenario. */
const DEMO_WAIT_MS = 10 * 60_000;

export function wireInvestigations(base: Base<DB>, needs: InvestigationsNeeds): InvestigationsWiring {
  const analysis = needs.analysis.context;
  base.assembly.routes((v1) =>
    registerInvestigationRoutes(v1, analysis, {
      openInvestigations: base.config.maxOpenInvestigationsPerProject,
    }),
  );
  if (!needs.demo) return { demoInvestigation: undefined };
  const tour = new AbortController();
  const demoInvestigation = openDemoInvestigation(analysis, needs.demo, tour.signal).catch(() => undefined);
  base.assembly.onClose(async () => {
    tour.abort();
    await demoInvestigation;
  });
  return { demoInvestigation };
}

/**
 * The demo project's investigation of the scenario's mixing case (incremental, 4 layers), once the indexer holds
 * the whole scenario: made on the first start with the devnet, found again on the next ones.
 */
async function openDemoInvestigation(
  analysis: AnalysisContext,
  devnet: DemoDevnet,
  signal: AbortSignal,
): Promise<{ projectId: number; investigationId: string } | undefined> {
  const ready = await devnet.ready;
  const mixing = devnet.addresses.find((a) => a.pattern === "mixing");
  if (!ready || !mixing) return undefined;
  const db = analysis.db;
  const projectId = await demoProjectId(db);
  if (projectId === undefined) return undefined;
  const existing = await db
    .selectFrom("investigations")
    .select("id")
    .where("project_id", "=", projectId)
    .where("name", "=", DEMO_INVESTIGATION)
    .executeTakeFirst();
  if (existing) return { projectId, investigationId: existing.id };
  // The analysis reads the store: wait until the indexer has the scenario's transfers (a few seconds).
  for (const deadline = Date.now() + DEMO_WAIT_MS; ; ) {
    if (signal.aborted || Date.now() > deadline) return undefined;
    if ((await transfersOn(db, DEVNET_CHAIN_ID)) >= ready.transfers) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const created = await createInvestigation(analysis, {
    projectId,
    name: DEMO_INVESTIGATION,
    address: mixing.address,
    chainId: DEVNET_CHAIN_ID,
    incremental: true,
    maxDepth: 4,
  });
  return { projectId, investigationId: created.id };
}
