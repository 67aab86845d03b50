// The devnet's node: anvil (@foundry-rs/anvil) as a child process on loopback, chain id 31337, zero gas price (so
// planned amounts are exact and senders need nothing for fees), first-in-first-out ordering, any sender
// impersonated (the scenario's accounts have no keys). With a state dir the chain is kept across restarts: anvil
// loads <dir>/state.json at start and writes it on a clean stop and every 30 s. <dir>/anvil.json names the running
// node and its owner, so that a second Vigía process on the same dir finds it instead of starting another, and a
// node left behind by a process that died is stopped before a new one starts.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";

export const DEFAULT_DEVNET_PORT = 8545;

export interface AnvilOptions {
  chainId: number;
  /** Timestamp of the genesis block of a new chain (ignored when a saved state is loaded). */
  genesisTime: number;
  /** Preferred port; default 8545. */
  port?: number;
  /** Fail when the port is taken instead of choosing a free one. */
  strictPort?: boolean;
  /** Where the chain is kept across restarts; undefined: nothing is kept. */
  stateDir?: string;
  /** Told about a replaced state file and the like. */
  warn?: (msg: string) => void;
}

export interface RunningNode {
  url: string;
  pid: number;
  /** The process that started it. */
  ownerPid: number;
}

export class AnvilProcess {
  readonly #child: ChildProcess;
  readonly #exited: Promise<number | null>;
  readonly #infoFile: string | undefined;
  readonly #killOnExit = () => this.#child.kill("SIGTERM");
  #stopping: Promise<void> | undefined;

  constructor(
    child: ChildProcess,
    readonly port: number,
    infoFile: string | undefined,
  ) {
    this.#child = child;
    this.#infoFile = infoFile;
    this.#exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    // If this process exits without stopping the node (an uncaught error), the node goes with it.
    process.once("exit", this.#killOnExit);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.#child.pid ?? 0;
  }

  /** Resolves with the exit code when the node exits, whether stopped or not. */
  get exited(): Promise<number | null> {
    return this.#exited;
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** SIGTERM (anvil writes its state file), then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      process.off("exit", this.#killOnExit);
      if (this.running) {
        this.#child.kill("SIGTERM");
        const timer = setTimeout(() => this.#child.kill("SIGKILL"), 10_000);
        await this.#exited;
        clearTimeout(timer);
      }
      if (this.#infoFile) fs.rmSync(this.#infoFile, { force: true });
    })();
    return this.#stopping;
  }
}

/** The anvil binary of this platform's @foundry-rs/anvil-* package. */
export function anvilBinary(): string {
  const os = ({ linux: "linux", darwin: "darwin", win32: "win32" } as Record<string, string>)[
    process.platform
  ];
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch];
  if (!os || !arch) throw new Error(`no anvil package for ${process.platform}/${process.arch}`);
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve(`@foundry-rs/anvil-${os}-${arch}/package.json`);
  } catch {
    throw new Error(
      `@foundry-rs/anvil-${os}-${arch} is not installed (npm ci installs it with @foundry-rs/anvil)`,
    );
  }
  return path.join(path.dirname(manifest), "bin", os === "win32" ? "anvil.exe" : "anvil");
}

/** The node another live process runs on this state dir, if any. */
export function runningNode(stateDir: string): RunningNode | undefined {
  const info = readInfo(stateDir);
  if (!info || info.ownerPid === process.pid) return undefined;
  return alive(info.ownerPid) && alive(info.pid) ? info : undefined;
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilProcess> {
  const { stateDir } = options;
  if (stateDir) {
    fs.mkdirSync(stateDir, { recursive: true });
    await stopLeftover(stateDir);
  }
  const stateFile = stateDir ? path.join(stateDir, "state.json") : undefined;
  let port = await choosePort(options.port ?? DEFAULT_DEVNET_PORT, options.strictPort ?? false);
  for (let attempt = 1; ; attempt++) {
    const loading = stateFile !== undefined && fs.existsSync(stateFile);
    try {
      const node = await spawnAnvil(options, port, stateFile, loading);
      if (stateDir) writeInfo(stateDir, { url: node.url, pid: node.pid, ownerPid: process.pid });
      return node;
    } catch (error) {
      if (attempt >= 3) throw error;
      const message = (error as Error).message;
      if (/address already in use/i.test(message) && !options.strictPort) {
        // Taken between the check and anvil's bind.
        port = await choosePort(0, false);
      } else if (loading && stateFile) {
        // A state file anvil cannot load (truncated by a crash, another anvil version): keep it aside, start anew.
        const aside = `${stateFile}.unreadable-${Date.now()}`;
        fs.renameSync(stateFile, aside);
        options.warn?.(`devnet: anvil could not load ${stateFile} (${message}); moved it to ${aside}`);
      } else {
        throw error;
      }
    }
  }
}

async function spawnAnvil(
  options: AnvilOptions,
  port: number,
  stateFile: string | undefined,
  loading: boolean,
): Promise<AnvilProcess> {
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--chain-id",
    String(options.chainId),
    "--base-fee",
    "0",
    "--gas-price",
    "0",
    // No --disable-min-priority-fee: with it anvil fills a transaction sent without fee fields (a wallet's,
    // `cast send`'s) with a max fee of the base fee (0) and a priority fee of 1 gwei, and refuses it ("max priority
    // fee per gas higher than max fee per gas"). Without it the max fee is 1 gwei too; the scenario's own
    // transactions still carry a zero gas price and pay nothing.
    "--auto-impersonate",
    "--order",
    "fifo",
    "--silent",
  ];
  // A loaded chain keeps its own clock: a genesis time given again would send the next block back in time.
  if (!loading) args.push("--timestamp", String(options.genesisTime));
  if (stateFile) args.push("--state", stateFile, "--state-interval", "30");
  // Its own process group: a Ctrl-C in the terminal reaches Vigía, which stops the node in order (after the
  // indexer), instead of reaching both at once.
  // A minimal environment: the node needs none of the service's settings, and must not see its secrets.
  const env = Object.fromEntries(
    ["PATH", "HOME", "TMPDIR", "LANG"].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])),
  );
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"], detached: true, env });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 10_000) stderr += chunk.toString();
  });
  const stderrClosed = new Promise((resolve) => child.stderr?.once("close", resolve));
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  const node = new AnvilProcess(
    child,
    port,
    stateFile ? path.join(path.dirname(stateFile), "anvil.json") : undefined,
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const failed = await Promise.race([spawnError, sleep(50).then(() => undefined)]);
    if (failed) throw new Error(`cannot start anvil: ${failed.message}`);
    if (!node.running) {
      await node.stop();
      await Promise.race([stderrClosed, sleep(1000)]);
      throw new Error(`anvil exited at start: ${lastLine(stderr) || `exit code ${child.exitCode}`}`);
    }
    if (await answers(node.url)) return node;
    if (Date.now() > deadline) {
      await node.stop();
      throw new Error(`anvil did not answer on ${node.url} within 30 s: ${lastLine(stderr)}`);
    }
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** The preferred port when it is free (0: any), else a free one (or an error when strict). */
async function choosePort(preferred: number, strict: boolean): Promise<number> {
  const bound = await listenOn(preferred);
  if (bound !== undefined) return bound;
  if (strict) throw new Error(`port ${preferred} is in use (another node?); choose another with --port`);
  const any = await listenOn(0);
  if (any === undefined) throw new Error("no free port on 127.0.0.1");
  return any;
}

function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}

/** Stops a node whose owner died (it would hold the port and write the state file); only a node on this dir. */
async function stopLeftover(stateDir: string): Promise<void> {
  const info = readInfo(stateDir);
  if (!info) return;
  if (info.ownerPid !== process.pid && alive(info.ownerPid) && alive(info.pid)) {
    throw new Error(`the devnet of ${stateDir} is already running at ${info.url} (process ${info.ownerPid})`);
  }
  if (alive(info.pid) && isOurAnvil(info.pid, stateDir)) {
    process.kill(info.pid, "SIGTERM");
    const deadline = Date.now() + 10_000;
    while (alive(info.pid) && Date.now() < deadline) await sleep(50);
    if (alive(info.pid)) process.kill(info.pid, "SIGKILL");
  }
  fs.rmSync(path.join(stateDir, "anvil.json"), { force: true });
}

/** Whether `pid` is an anvil started on this state dir (Linux: its command line; elsewhere: not known, so no). */
function isOurAnvil(pid: number, stateDir: string): boolean {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return (
      path.basename(cmdline[0] ?? "").startsWith("anvil") &&
      cmdline.includes(path.join(stateDir, "state.json"))
    );
  } catch {
    return false;
  }
}

function readInfo(stateDir: string): RunningNode | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(stateDir, "anvil.json"), "utf8")) as RunningNode;
    return Number.isInteger(info.pid) && Number.isInteger(info.ownerPid) && typeof info.url === "string"
      ? info
      : undefined;
  } catch {
    return undefined;
  }
}

function writeInfo(stateDir: string, info: RunningNode): void {
  fs.writeFileSync(path.join(stateDir, "anvil.json"), `${JSON.stringify(info)}\n`);
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The line of anvil's output that says what went wrong. */
function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return (lines.find((line) => /error/i.test(line)) ?? lines.at(-1) ?? "").trim();
}
