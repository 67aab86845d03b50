// Whether `vigia serve` runs the demo devnet: on a fresh embedded setup with no chains configured (a newcomer's
// first try), and on PostgreSQL (a deployment) only when VIGIA_DEVNET=true asks for it; never with VIGIA_DEVNET=false,
// with a chains file, or in an API-only process.
import type { Config } from "../platform/config.ts";

export function shouldRunDevnet(
  config: Pick<Config, "chainsFile" | "databaseUrl" | "devnet">,
  workers: boolean,
): boolean {
  if (!workers || config.chainsFile) return false;
  return config.devnet ?? !config.databaseUrl;
}

/**
 * Whether the indexer follows the built-in list's devnet (chain 31337 at 127.0.0.1:8545): where devnets run (this
 * process's own, the embedded default with a `vigia devnet` beside it, or VIGIA_DEVNET=true), or when a chains file
 * lists it (the operator's choice). After a move to PostgreSQL the port may be another program's anvil.
 */
export function followsDevnetChain(
  config: Pick<Config, "chainsFile" | "databaseUrl" | "devnet">,
  runsDevnet: boolean,
): boolean {
  return runsDevnet || Boolean(config.chainsFile) || (config.devnet ?? !config.databaseUrl);
}
