// The clusters room in a running service: its route. The clusters themselves are kept by whoever brings a UTXO
// chain's transactions in (the bitcoin-etl import), through clusterTransactions.
import type { ChainRegistry } from "../chains/index.ts";
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { registerClusterRoutes } from "./routes.ts";

export function wireClusters(base: Base<DB>, needs: { registry: ChainRegistry }): void {
  base.assembly.routes((v1) => registerClusterRoutes(v1, { db: base.db, registry: needs.registry }));
}
