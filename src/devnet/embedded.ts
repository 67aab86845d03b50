// The devnet inside `vigia serve` when no chains are configured (no VIGIA_CHAINS): a fresh machine gets a local
// chain with the demo scenario, its labels and prices, and the service's indexer follows it, so every endpoint has
// real data. The node starts before the indexer (on 8545, or any free port when that is taken: the registry
// handed to the indexer carries the actual URL); the scenario is written and played in the background while the
// API already answers. A devnet that another Vigía process runs on the same data dir (`vigia devnet`) is used
// instead of starting a second one. Stopping the service stops the node (anvil saves the chain in the data dir).
import type { Kysely } from "kysely";
import pino from "pino";
import { BUILT_IN_CHAINS, ChainRegistry, DEVNET_CHAIN_ID } from "../chains/index.ts";
import type { DB } from "../schema.ts";
import { type DevnetDataSummary, writeDevnetData } from "../worlds/index.ts";
import { type DemoAddress, demoAddresses } from "./addresses.ts";
import { startDevnet } from "./devnet.ts";
import type { PlayResult } from "./play.ts";

export interface DevnetLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EmbeddedDevnetOptions {
  db: Kysely<DB>;
  /** Where the chain is kept (<data dir>/devnet); undefined for an in-memory service. */
  stateDir: string | undefined;
  /** Preferred port; default 8545. */
  port?: number;
  log?: DevnetLog;
  logLevel?: string;
}

export interface EmbeddedDevnetReady {
  data: DevnetDataSummary;
  /** undefined when another process runs (and plays) the node. */
  play: PlayResult | undefined;
  transfers: number;
}

export interface EmbeddedDevnet {
  rpcUrl: string;
  /** The process running the node when it is not this one. */
  sharedFrom: number | undefined;
  /** The chains to serve and index: the built-in list, the devnet at its actual URL. */
  registry: ChainRegistry;
  /** The scenario's addresses worth analysing (devnet/addresses.ts). */
  addresses: DemoAddress[];
  /** Settles once the labels and prices are written and the scenario is on the chain (undefined on failure). */
  ready: Promise<EmbeddedDevnetReady | undefined>;
  stop(): Promise<void>;
}

export async function startEmbeddedDevnet(options: EmbeddedDevnetOptions): Promise<EmbeddedDevnet> {
  const log = options.log ?? pino({ level: options.logLevel ?? "info", name: "devnet" });
  const devnet = await startDevnet({
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    shareRunning: true,
    warn: (msg) => log.warn({}, msg),
  });
  const abort = new AbortController();
  devnet.node?.exited.then((code) => {
    if (!abort.signal.aborted)
      log.warn({ code }, "devnet: anvil exited; the chain's RPC is gone until a restart");
  });
  const ready = (async (): Promise<EmbeddedDevnetReady | undefined> => {
    try {
      const data = await writeDevnetData(options.db, devnet.world, devnet.plan);
      const play = devnet.node ? await devnet.play({ signal: abort.signal }) : undefined;
      log.info(
        {
          rpcUrl: devnet.rpcUrl,
          outcome: play?.outcome ?? "shared",
          blocks: play?.mined,
          ms: play?.ms,
          labels: data.labels.labels,
          prices: data.prices.rows,
        },
        !play
          ? `devnet: using the node of process ${devnet.sharedFrom}`
          : play.outcome === "already"
            ? "devnet: the demo scenario is on the chain"
            : "devnet: played the demo scenario",
      );
      return { data, play, transfers: devnet.plan.transfers };
    } catch (error) {
      if (!abort.signal.aborted) log.error({ err: error }, `devnet: ${(error as Error).message}`);
      return undefined;
    }
  })();
  return {
    rpcUrl: devnet.rpcUrl,
    sharedFrom: devnet.sharedFrom,
    registry: devnetRegistry(devnet.rpcUrl),
    addresses: demoAddresses(devnet.world),
    ready,
    async stop() {
      abort.abort();
      await ready;
      await devnet.stop();
    },
  };
}

/** The built-in chains with the devnet's RPC URL replaced by the running node's. */
export function devnetRegistry(rpcUrl: string): ChainRegistry {
  return new ChainRegistry(
    BUILT_IN_CHAINS.map((chain) => (chain.id === DEVNET_CHAIN_ID ? { ...chain, rpc_url: rpcUrl } : chain)),
  );
}
