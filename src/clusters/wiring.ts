// The clusters room in a running service: its route. The clusters themselves are kept by whoever brings a UTXO
// chain's transactions in (the bitcoin-etl import, Esplora histories), through clusterTransactions.
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { type ClusterChains, registerClusterRoutes } from "./routes.ts";

export function wireClusters(base: Base<DB>, needs: { registry: ClusterChains }): void {
  base.assembly.routes((v1) => registerClusterRoutes(v1, { db: base.db, registry: needs.registry }));
}
