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
