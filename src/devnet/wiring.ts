// The demo devnet in a running service (`vigia serve` without VIGIA_CHAINS): anvil with the scenario, its labels
// and prices, stopped with the service. Its node may not get port 8545: the chain followers follow the chain at the
// node's actual URL (its registry).
import path from "node:path";
import type { Base } from "../platform/assembly.ts";
import type { Database } from "../platform/db/open.ts";
import type { DB } from "../schema.ts";
import { type EmbeddedDevnet, startEmbeddedDevnet } from "./embedded.ts";

/** Whether to run it, and its preferred RPC port (default 8545; a taken one is replaced). */
export type DevnetChoice = boolean | { port?: number } | undefined;

export async function wireDevnet(
  base: Base<DB>,
  choice: DevnetChoice,
  database: Database<DB>,
): Promise<EmbeddedDevnet | undefined> {
  if (!choice) return undefined;
  const { config } = base;
  const devnet = await startEmbeddedDevnet({
    database,
    stateDir: config.dataDir === "memory://" ? undefined : path.join(config.dataDir, "devnet"),
    ...(typeof choice === "object" ? choice : {}),
    logLevel: config.logLevel,
  });
  base.assembly.onClose(() => devnet.stop());
  return devnet;
}
