// `vigia devnet`: starts anvil with the demo scenario (deploys USDV and TKN, plays the seeded world at its
// historical times), writes the scenario's labels, prices and tokens into the store (directly, or through a running
// `vigia serve` on the same data dir), prints the RPC URL and what to try, and keeps the node running until
// SIGINT/SIGTERM. The chain is kept in <data dir>/devnet, so the next run starts at once with the same chain.
// Beside it, unless --no-tron, the Tron devnet (tron-devnet.ts: chain 728131337 on 8546, kept in
// <data dir>/tron-devnet), its addresses printed in base58check as the API writes them.
import path from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { tronBase58 } from "../chains/address/index.ts";
import type { WithDatabase } from "../ingest/index.ts";
import type { Config } from "../platform/config.ts";
import {
  DEVNET_LABEL_SOURCE,
  type DevnetDataSummary,
  TOKEN_CONTRACTS,
  TOKENS,
  TRON_DEVNET_LABEL_SOURCE,
  TRON_USDT_CONTRACT,
  writeDevnetData,
} from "../worlds/index.ts";
import { demoAddresses, demoAddressLines, tronDemoAddresses } from "./addresses.ts";
import { runningNode } from "./anvil.ts";
import { type Devnet, startDevnet } from "./devnet.ts";
import type { PlayResult } from "./play.ts";
import { sendOnDevnet } from "./send.ts";
import { startTronDevnet, TRON_DEVNET_CHAIN_ID } from "./tron-devnet.ts";

interface DevnetCommandOptions {
  port?: number;
  tronPort?: number;
  tron: boolean;
  state: boolean;
}

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError("must be a port number");
  return n;
};

export function registerDevnetCommand(
  program: Command,
  withDatabase: WithDatabase,
  loadConfig: () => Config,
) {
  const devnet = program
    .command("devnet")
    .description(
      "start a local EVM chain (anvil, chain id 31337) with the demo scenario, and the Tron devnet (chain 728131337) with its own, and write their labels and prices",
    )
    .option("--port <port>", "RPC port (default 8545, or a free one when it is taken)", port)
    .option(
      "--tron-port <port>",
      "the Tron devnet's RPC port (default 8546, or a free one when it is taken)",
      port,
    )
    .option("--no-tron", "do not start the Tron devnet (chain 728131337) beside it")
    .option("--no-state", "start a throwaway chain instead of keeping it in <data dir>/devnet")
    .action((opts: DevnetCommandOptions) => runDevnetCommand(opts, withDatabase, loadConfig()));
  devnet
    .command("send")
    .description(
      "send ETH on the running devnet, now, from a funded development account (to see monitoring work)",
    )
    .argument("<address>", "the recipient")
    .argument("<eth>", "the amount of ETH, e.g. 0.1")
    .action(async (address: string, eth: string) => {
      const sent = await sendOnDevnet(loadConfig().dataDir, address, eth);
      process.stdout.write(`${JSON.stringify(sent)}\n`);
    });
}

async function runDevnetCommand(opts: DevnetCommandOptions, withDatabase: WithDatabase, config: Config) {
  const stateDir = opts.state ? path.join(config.dataDir, "devnet") : undefined;
  const running = stateDir ? runningNode(stateDir) : undefined;
  if (running) {
    process.stdout.write(
      `The devnet is already running at ${running.url} (chain 31337, process ${running.ownerPid}).\n`,
    );
    return;
  }
  // Signals are handled from the start: a Ctrl-C while playing stops the node too (it runs in its own group).
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => stop.abort(signal);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const warn = (msg: string) => process.stderr.write(`vigia: warning: ${msg}\n`);
  const devnet = await startDevnet({
    ...(opts.port !== undefined ? { port: opts.port, strictPort: true } : {}),
    ...(stateDir ? { stateDir } : {}),
    warn,
  });
  const tronStateDir = stateDir ? path.join(config.dataDir, "tron-devnet") : undefined;
  let tron: Devnet | undefined;
  let stopping = false;
  try {
    if (opts.tron) {
      tron = await startTronDevnet({
        ...(opts.tronPort !== undefined ? { port: opts.tronPort, strictPort: true } : {}),
        ...(tronStateDir ? { stateDir: tronStateDir } : {}),
        // A `vigia serve` may run it already (it starts its own when no `vigia devnet` runs).
        shareRunning: true,
        warn,
      });
    }
    const played = await devnet.play({ signal: stop.signal });
    const tronPlayed = tron?.node ? await tron.play({ signal: stop.signal }) : undefined;
    const [data, tronData] = await withDatabase(async ({ database }) => [
      await writeDevnetData(database.db, devnet.world, devnet.plan),
      tron ? await writeDevnetData(database.db, tron.world, tron.plan) : undefined,
    ]);
    printSummary(devnet, played, data, stateDir);
    if (tron && tronData) printTronSummary(tron, tronPlayed, tronData, tronStateDir);
    out("`vigia serve` without VIGIA_CHAINS on this data dir indexes these nodes.");
    out("Press Ctrl-C to stop the nodes.");
    // Runs until a signal, or until a node dies.
    const signal = await new Promise<string>((resolve) => {
      if (stop.signal.aborted) resolve(String(stop.signal.reason));
      stop.signal.addEventListener("abort", () => resolve(String(stop.signal.reason)));
      devnet.node?.exited.then(() => resolve("exit"));
      tron?.node?.exited.then(() => resolve("exit"));
    });
    if (signal === "exit") throw new Error("anvil stopped unexpectedly");
    stopping = true;
    process.stderr.write(`${signal}: stopping the devnet\n`);
  } catch (error) {
    if (!stop.signal.aborted) throw error;
    stopping = true;
    process.stderr.write(`${String(stop.signal.reason)}: stopping the devnet\n`);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await Promise.all([devnet.stop(), tron?.stop()]);
    if (stopping) process.stderr.write(stateDir ? `chain saved in ${stateDir}\n` : "stopped\n");
  }
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

function printSummary(
  devnet: Devnet,
  played: PlayResult,
  data: DevnetDataSummary,
  stateDir: string | undefined,
) {
  const { plan, world } = devnet;
  out(`Vigía devnet: chain 31337 at ${devnet.rpcUrl}`);
  out(
    played.outcome === "already"
      ? `  scenario: already on the chain (blocks 1-${played.lastBlock})`
      : `  scenario: ${played.outcome} ${played.mined} blocks in ${(played.ms / 1000).toFixed(1)} s`,
  );
  out(
    `  ${plan.transfers} transfers from ${day(plan.firstDay)} to ${day(plan.lastDay)}, ${world.accounts.size} accounts`,
  );
  for (const symbol of ["USDV", "TKN"] as const) {
    out(`  ${symbol}: ${TOKEN_CONTRACTS[symbol].address} (${TOKENS[symbol].decimals} decimals)`);
  }
  out(
    `  store: ${data.labels.labels} labels (source ${DEVNET_LABEL_SOURCE}), ${data.prices.rows} daily prices, ${data.tokens} tokens`,
  );
  out("  addresses to analyse:");
  for (const line of demoAddressLines(demoAddresses(world))) out(line);
  out(stateDir ? `  chain kept in ${stateDir}` : "  throwaway chain (--no-state)");
}

/** The Tron devnet's lines: its chain, its USDT and its addresses in base58check. */
function printTronSummary(
  tron: Devnet,
  played: PlayResult | undefined,
  data: DevnetDataSummary,
  stateDir: string | undefined,
) {
  const { plan, world } = tron;
  out(`Vigía Tron devnet: chain ${TRON_DEVNET_CHAIN_ID} (Tron-kind: base58 addresses) at ${tron.rpcUrl}`);
  out(
    !played
      ? `  scenario: played by process ${tron.sharedFrom}`
      : played.outcome === "already"
        ? `  scenario: already on the chain (blocks 1-${played.lastBlock})`
        : `  scenario: ${played.outcome} ${played.mined} blocks in ${(played.ms / 1000).toFixed(1)} s`,
  );
  out(
    `  ${plan.transfers} USDT transfers from ${day(plan.firstDay)} to ${day(plan.lastDay)}, ${world.accounts.size} accounts`,
  );
  out(`  USDT: ${tronBase58(TRON_USDT_CONTRACT)} (6 decimals, Tether's AddedBlackList freezes)`);
  out(
    `  store: ${data.labels.labels} labels (source ${TRON_DEVNET_LABEL_SOURCE}), ${data.prices.rows} daily prices`,
  );
  out("  addresses to analyse:");
  for (const line of demoAddressLines(tronDemoAddresses(world))) out(line);
  out(stateDir ? `  chain kept in ${stateDir}` : "  throwaway chain (--no-state)");
}
