// The devnet inside `vigia serve` when no chains are configured (no VIGIA_CHAINS): a fresh machine gets a local
// chain with the demo scenario, its labels and prices, and the service's indexer follows it, so every endpoint has
// real data. The node starts before the indexer (on 8545, or any free port when that is taken: the registry
// handed to the indexer carries the actual URL); the scenario is written and played in the background while the
// API already answers. A devnet that another Vigía process runs on the same data dir (`vigia devnet`) is used
// instead of starting a second one. Stopping the service stops the node (anvil saves the chain in the data dir).
// Beside it runs the Tron devnet (tron-devnet.ts: a second anvil, on 8546 or any free port, with the Tron demo
// world, kept in <data dir>/tron-devnet), registered as a Tron-kind chain; a Tron devnet that cannot start is
// reported and left out, the EVM devnet going on without it.
import path from "node:path";
import type { Kysely } from "kysely";
import pino from "pino";
import { BUILT_IN_CHAINS, ChainRegistry, DEVNET_CHAIN_ID } from "../chains/index.ts";
import type { Database } from "../platform/db/open.ts";
import type { DB } from "../schema.ts";
import {
  type BitcoinWorld,
  bitcoinDevnetWorld,
  type DevnetDataSummary,
  writeDevnetData,
} from "../worlds/index.ts";
import { type DemoAddress, demoAddresses, tronDemoAddresses } from "./addresses.ts";
import {
  BITCOIN_DEVNET_CHAIN_ID,
  type BitcoinDevnetReady,
  bitcoinDemoAddresses,
  importBitcoinDevnet,
} from "./bitcoin-devnet.ts";
import { type Devnet, startDevnet } from "./devnet.ts";
import type { PlayResult } from "./play.ts";
import { startTronDevnet, TRON_DEVNET_CHAIN_ID, tronDevnetChain } from "./tron-devnet.ts";

export interface DevnetLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EmbeddedDevnetOptions {
  /** The store: the devnets' labels and prices, and the Bitcoin devnet's imported world. */
  database: Database<DB>;
  /** Where the chain is kept (<data dir>/devnet); undefined for an in-memory service. */
  stateDir: string | undefined;
  /** Preferred port; default 8545. */
  port?: number;
  /** The Tron devnet's preferred port (default 8546), or false for no Tron devnet. */
  tron?: { port?: number } | false;
  /** false: no Bitcoin devnet (its world is not imported). */
  bitcoin?: boolean;
  log?: DevnetLog;
  logLevel?: string;
}

export interface EmbeddedDevnetReady {
  data: DevnetDataSummary;
  /** undefined when another process runs (and plays) the node. */
  play: PlayResult | undefined;
  transfers: number;
}

/** The Tron devnet beside the EVM one. */
export interface EmbeddedTronDevnet {
  chainId: number;
  rpcUrl: string;
  sharedFrom: number | undefined;
  /** The Tron scenario's addresses worth analysing, in base58check (devnet/addresses.ts). */
  addresses: DemoAddress[];
  /** Settles once its labels and prices are written and its scenario is on its chain (undefined on failure). */
  ready: Promise<EmbeddedDevnetReady | undefined>;
}

/** The Bitcoin devnet beside the others: a world imported into the store, no node. */
export interface EmbeddedBitcoinDevnet {
  chainId: number;
  /** The Bitcoin scenario's addresses worth analysing (regtest, bcrt1…). */
  addresses: DemoAddress[];
  /** Settles once its labels, prices and transactions are in the store (undefined on failure). */
  ready: Promise<BitcoinDevnetReady | undefined>;
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
  /** The Tron devnet; undefined when turned off or when it could not start. */
  tron: EmbeddedTronDevnet | undefined;
  /** The Bitcoin devnet (no node: its world imported into the store); undefined when turned off. */
  bitcoin: EmbeddedBitcoinDevnet | undefined;
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
  let tron: Devnet | undefined;
  if (options.tron !== false) {
    try {
      tron = await startTronDevnet({
        ...(options.tron?.port !== undefined ? { port: options.tron.port } : {}),
        // Beside the EVM devnet's state dir: <data dir>/tron-devnet.
        ...(options.stateDir ? { stateDir: path.join(path.dirname(options.stateDir), "tron-devnet") } : {}),
        shareRunning: true,
        warn: (msg) => log.warn({}, msg),
      });
    } catch (error) {
      log.error({ err: error }, `tron devnet: not started: ${(error as Error).message}`);
    }
  }
  const abort = new AbortController();
  for (const node of [devnet, tron]) {
    node?.node?.exited.then((code) => {
      if (!abort.signal.aborted)
        log.warn(
          { code, chainId: node.chainId },
          "devnet: anvil exited; the chain's RPC is gone until a restart",
        );
    });
  }
  const ready = playAndWrite(devnet, options.database.db, abort.signal, log, "devnet");
  const tronReady = tron
    ? playAndWrite(tron, options.database.db, abort.signal, log, "tron devnet")
    : undefined;
  const bitcoinWorld = options.bitcoin === false ? undefined : bitcoinDevnetWorld();
  const bitcoinReady = bitcoinWorld ? importBitcoin(options, bitcoinWorld, log) : undefined;
  return {
    rpcUrl: devnet.rpcUrl,
    sharedFrom: devnet.sharedFrom,
    registry: devnetRegistry(devnet.rpcUrl, tron?.rpcUrl),
    addresses: demoAddresses(devnet.world),
    ready,
    tron:
      tron && tronReady
        ? {
            chainId: TRON_DEVNET_CHAIN_ID,
            rpcUrl: tron.rpcUrl,
            sharedFrom: tron.sharedFrom,
            addresses: tronDemoAddresses(tron.world),
            ready: tronReady,
          }
        : undefined,
    bitcoin:
      bitcoinWorld && bitcoinReady
        ? {
            chainId: BITCOIN_DEVNET_CHAIN_ID,
            addresses: bitcoinDemoAddresses(bitcoinWorld),
            ready: bitcoinReady,
          }
        : undefined,
    async stop() {
      abort.abort();
      await Promise.all([ready, tronReady, bitcoinReady]);
      await Promise.all([devnet.stop(), tron?.stop()]);
    },
  };
}

/** Imports the Bitcoin devnet's world (beside the data dir's devnet state, or a temporary directory). */
async function importBitcoin(
  options: EmbeddedDevnetOptions,
  world: BitcoinWorld,
  log: DevnetLog,
): Promise<BitcoinDevnetReady | undefined> {
  try {
    const dir = options.stateDir ? path.join(path.dirname(options.stateDir), "bitcoin-devnet") : undefined;
    const ready = await importBitcoinDevnet(options.database, dir ? { dir, world } : { world });
    log.info(
      {
        chainId: BITCOIN_DEVNET_CHAIN_ID,
        transactions: ready.transactions,
        written: ready.written,
        labels: ready.data.labels.labels,
      },
      "bitcoin devnet: imported the demo world",
    );
    return ready;
  } catch (error) {
    log.error({ err: error }, `bitcoin devnet: not imported: ${(error as Error).message}`);
    return undefined;
  }
}

/** Writes a devnet's labels and prices, then plays its scenario unless another process runs its node. */
async function playAndWrite(
  devnet: Devnet,
  db: Kysely<DB>,
  signal: AbortSignal,
  log: DevnetLog,
  name: string,
): Promise<EmbeddedDevnetReady | undefined> {
  try {
    const data = await writeDevnetData(db, devnet.world, devnet.plan);
    const play = devnet.node ? await devnet.play({ signal }) : undefined;
    log.info(
      {
        chainId: devnet.chainId,
        rpcUrl: devnet.rpcUrl,
        outcome: play?.outcome ?? "shared",
        blocks: play?.mined,
        ms: play?.ms,
        labels: data.labels.labels,
        prices: data.prices.rows,
      },
      !play
        ? `${name}: using the node of process ${devnet.sharedFrom}`
        : play.outcome === "already"
          ? `${name}: the demo scenario is on the chain`
          : `${name}: played the demo scenario`,
    );
    return { data, play, transfers: devnet.plan.transfers };
  } catch (error) {
    if (!signal.aborted) log.error({ err: error }, `${name}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * The built-in chains with the devnet's RPC URL replaced by the running node's, and the Tron devnet's entry at its
 * node's URL (replacing the built-in one, or added while the built-in list has none).
 */
export function devnetRegistry(rpcUrl: string, tronRpcUrl?: string): ChainRegistry {
  const chains = BUILT_IN_CHAINS.filter(
    (chain) => tronRpcUrl === undefined || chain.id !== TRON_DEVNET_CHAIN_ID,
  ).map((chain) => (chain.id === DEVNET_CHAIN_ID ? { ...chain, rpc_url: rpcUrl } : chain));
  if (tronRpcUrl !== undefined) {
    const builtIn = BUILT_IN_CHAINS.find((chain) => chain.id === TRON_DEVNET_CHAIN_ID);
    chains.push(builtIn ? { ...builtIn, rpc_url: tronRpcUrl } : tronDevnetChain(tronRpcUrl));
  }
  return new ChainRegistry(chains);
}
