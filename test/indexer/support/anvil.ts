// A real anvil node for the indexer's tests and benchmark: on a free loopback port, chain id 31337 (or another, for
// a second chain), the well-known test mnemonic (deterministic accounts), nothing from the network. It can be killed and started again
// on the same port, with or without the state it dumped.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";

export const MNEMONIC = "test test test test test test test test test test test junk";
export const CHAIN_ID = 31337;

/** The anvil binary of this platform's @foundry-rs/anvil-* package. */
export function anvilBinary(): string {
  const os = { linux: "linux", darwin: "darwin", win32: "win32" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  if (!os || !arch) throw new Error(`no anvil package for ${process.platform}/${process.arch}`);
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`@foundry-rs/anvil-${os}-${arch}/package.json`);
  return path.join(path.dirname(manifest), "bin", os === "win32" ? "anvil.exe" : "anvil");
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface AnvilOptions {
  port?: number;
  /** Extra arguments, e.g. ["--dump-state", file] or ["--load-state", file]. */
  args?: string[];
  /** The chain id it serves; CHAIN_ID by default. */
  chainId?: number;
}

export class Anvil {
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #id = 0;

  private constructor(
    readonly port: number,
    readonly chainId: number = CHAIN_ID,
  ) {}

  static async start(options: AnvilOptions = {}): Promise<Anvil> {
    const anvil = new Anvil(options.port ?? (await freePort()), options.chainId);
    await anvil.restart(options.args);
    return anvil;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  /** Starts anvil (again) on the same port; resolves once it answers. */
  async restart(args: string[] = []): Promise<void> {
    if (this.#child) throw new Error("anvil is running");
    const child = spawn(
      anvilBinary(),
      [
        "--host",
        "127.0.0.1",
        "--port",
        String(this.port),
        "--chain-id",
        String(this.chainId),
        "--mnemonic",
        MNEMONIC,
        "--silent",
        ...args,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once("exit", () => resolve()));
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${stderr.trim()}`);
      try {
        await this.rpc("eth_chainId");
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`anvil did not answer on ${this.url}: ${stderr.trim()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** Stops anvil: SIGTERM lets it write its --dump-state file, SIGKILL is the node dying. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await this.#exited;
  }

  async rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const response = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++this.#id, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }

  /** Many calls in one JSON-RPC batch (anvil runs them in order). */
  async batch(calls: { method: string; params: unknown[] }[]): Promise<unknown[]> {
    if (calls.length === 0) return [];
    const first = this.#id + 1;
    this.#id += calls.length;
    const response = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(calls.map((c, i) => ({ jsonrpc: "2.0", id: first + i, ...c }))),
    });
    const body = (await response.json()) as { id: number; result?: unknown; error?: { message: string } }[];
    const byId = new Map(body.map((e) => [e.id, e]));
    return calls.map((c, i) => {
      const entry = byId.get(first + i);
      if (!entry || entry.error) throw new Error(`${c.method}: ${entry?.error?.message ?? "no answer"}`);
      return entry.result;
    });
  }

  async blockNumber(): Promise<bigint> {
    return BigInt(await this.rpc<string>("eth_blockNumber"));
  }
}
