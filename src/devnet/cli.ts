// `vigia devnet`: starts anvil with the demo scenario (deploys USDV and TKN, plays the seeded world at its
// historical times), writes the scenario's labels, prices and tokens into the store (directly, or through a running
// `vigia serve` on the same data dir), prints the RPC URL and what to try, and keeps the node running until
// SIGINT/SIGTERM. The chain is kept in <data dir>/devnet, so the next run starts at once with the same chain.
import path from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { WithDatabase } from "../ingest/index.ts";
import type { Config } from "../platform/config.ts";
import {
  DEVNET_LABEL_SOURCE,
  type DevnetDataSummary,
  TOKEN_CONTRACTS,
  TOKENS,
  writeDevnetData,
} from "../worlds/index.ts";
import { demoAddresses, demoAddressLines } from "./addresses.ts";
import { runningNode } from "./anvil.ts";
import { type Devnet, startDevnet } from "./devnet.ts";
import type { PlayResult } from "./play.ts";
import { sendOnDevnet } from "./send.ts";

interface DevnetCommandOptions {
  port?: number;
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
      "start a local EVM chain (anvil, chain id 31337) with the demo scenario, and write its labels and prices",
    )
    .option("--port <port>", "RPC port (default 8545, or a free one when it is taken)", port)
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
  const devnet = await startDevnet({
    ...(opts.port !== undefined ? { port: opts.port, strictPort: true } : {}),
    ...(stateDir ? { stateDir } : {}),
    warn: (msg) => process.stderr.write(`vigia: warning: ${msg}\n`),
  });
  let stopping = false;
  try {
    const played = await devnet.play({ signal: stop.signal });
    const data = await withDatabase(({ database }) =>
      writeDevnetData(database.db, devnet.world, devnet.plan),
    );
    printSummary(devnet, played, data, stateDir);
    // Runs until a signal, or until the node dies.
    const signal = await new Promise<string>((resolve) => {
      if (stop.signal.aborted) resolve(String(stop.signal.reason));
      stop.signal.addEventListener("abort", () => resolve(String(stop.signal.reason)));
      devnet.node?.exited.then(() => resolve("exit"));
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
    await devnet.stop();
    if (stopping) process.stderr.write(stateDir ? `chain saved in ${stateDir}\n` : "stopped\n");
  }
}

function printSummary(
  devnet: Devnet,
  played: PlayResult,
  data: DevnetDataSummary,
  stateDir: string | undefined,
) {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const { plan, world } = devnet;
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
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
  out("`vigia serve` without VIGIA_CHAINS on this data dir indexes this node.");
  out("Press Ctrl-C to stop the node.");
}
