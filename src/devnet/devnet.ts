// The devnet: the seeded demo world (src/worlds) played on a local anvil at its historical times, with its labels
// and prices in the store. Used by `vigia devnet` (src/devnet/cli.ts) and inside `vigia serve` when no chains are
// configured (src/devnet/embedded.ts). Starting it finds or starts the node; playing is idempotent and resumable.
// The Tron devnet (tron-devnet.ts) is the same machinery with another spec: its chain id, port, world and plan.

import fs from "node:fs";
import path from "node:path";
import { DEVNET_CHAIN_ID } from "../chains/index.ts";
import { JsonRpcClient } from "../chains/rpc/index.ts";
import {
  DAY,
  type DevnetPlan,
  devnetWorld,
  planDevnet,
  SCENARIO_START,
  type World,
} from "../worlds/index.ts";
import {
  type AnvilOptions,
  type AnvilProcess,
  DEFAULT_DEVNET_PORT,
  runningNode,
  startAnvil,
} from "./anvil.ts";
import { ForeignChainError, nextPlannedBlock, type PlayOptions, type PlayResult, playPlan } from "./play.ts";

/** The genesis block's time: a day before the scenario's first transfers. */
export const GENESIS_TIME = SCENARIO_START - DAY;

/** What makes one devnet: its chain, its preferred port, its world and the world's plan. */
export interface DevnetSpec {
  /** As logs and errors name it. */
  name: string;
  chainId: number;
  defaultPort: number;
  scenario(seed?: number): { world: World; plan: DevnetPlan };
}

export interface DevnetOptions {
  /** Preferred port (the spec's default: 8545, 8546 for Tron); taken: another is chosen, unless `strictPort`. */
  port?: number;
  strictPort?: boolean;
  /** Where the chain is kept across restarts (e.g. <data dir>/devnet); undefined: a throwaway chain. */
  stateDir?: string;
  /** Seed of the demo world (devnetWorld's default when absent). */
  seed?: number;
  /** Use a node another Vigía process already runs on this state dir instead of failing. */
  shareRunning?: boolean;
  warn?: (msg: string) => void;
}

export interface Devnet {
  rpcUrl: string;
  chainId: number;
  world: World;
  plan: DevnetPlan;
  /** The node this process started; undefined when it uses one another process runs (shareRunning). */
  node: AnvilProcess | undefined;
  /** The pid of the process that runs the node when it is not this one. */
  sharedFrom: number | undefined;
  rpc: JsonRpcClient;
  /** Plays whatever of the scenario the chain lacks. */
  play(options?: PlayOptions): Promise<PlayResult>;
  /** Stops the node if this process started it (anvil writes its state first). */
  stop(): Promise<void>;
}

/** The world and its chain plan, without a node (tests, summaries). */
export function devnetScenario(seed?: number): { world: World; plan: DevnetPlan } {
  const world = seed === undefined ? devnetWorld() : devnetWorld(seed);
  return { world, plan: planDevnet(world, { chainId: DEVNET_CHAIN_ID, genesisTime: GENESIS_TIME }) };
}

/** The EVM devnet: chain 31337 on 8545. */
export const EVM_DEVNET: DevnetSpec = {
  name: "devnet",
  chainId: DEVNET_CHAIN_ID,
  defaultPort: DEFAULT_DEVNET_PORT,
  scenario: devnetScenario,
};

export function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  return startSpecDevnet(EVM_DEVNET, options);
}

/** Starts (or finds, with shareRunning) the node of `spec` and checks that its chain is the spec's scenario's. */
export async function startSpecDevnet(spec: DevnetSpec, options: DevnetOptions = {}): Promise<Devnet> {
  const { world, plan } = spec.scenario(options.seed);
  const shared = options.stateDir && options.shareRunning ? runningNode(options.stateDir) : undefined;
  const anvilOptions: AnvilOptions = {
    chainId: spec.chainId,
    genesisTime: GENESIS_TIME,
    port: options.port ?? spec.defaultPort,
    ...(options.strictPort ? { strictPort: true } : {}),
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
  };
  let node = shared ? undefined : await startAnvil(anvilOptions);
  const rpcUrl = shared?.url ?? node!.url;
  const rpc = new JsonRpcClient(rpcUrl, { timeoutMs: 30_000, maxBatch: 500 });
  try {
    const chainId = Number(BigInt(await rpc.request<string>("eth_chainId")));
    if (chainId !== spec.chainId) throw new Error(`the node at ${rpcUrl} serves chain ${chainId}`);
    if (node && options.stateDir) {
      try {
        await nextPlannedBlock(rpc, plan);
      } catch (error) {
        if (!(error instanceof ForeignChainError)) throw error;
        // The saved chain is another scenario's (the scenario changed since it was played): start a new one on
        // the same port, keeping the old file aside.
        await node.stop();
        const stateFile = path.join(options.stateDir, "state.json");
        const aside = `${stateFile}.other-scenario-${Date.now()}`;
        if (fs.existsSync(stateFile)) fs.renameSync(stateFile, aside);
        options.warn?.(`${spec.name}: ${error.message}; started a new chain (the old one is in ${aside})`);
        node = await startAnvil({ ...anvilOptions, port: node.port, strictPort: true });
      }
    }
  } catch (error) {
    await node?.stop();
    throw error;
  }
  return {
    rpcUrl,
    chainId: spec.chainId,
    world,
    plan,
    node,
    sharedFrom: shared?.ownerPid,
    rpc,
    play: (playOptions = {}) => playPlan(rpc, plan, playOptions),
    stop: async () => {
      await node?.stop();
    },
  };
}
