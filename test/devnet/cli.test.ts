// `vigia devnet` as a process on a fresh embedded data dir: it plays the scenario, writes the labels and prices,
// prints the RPC URL and the addresses to try, serves the chain until SIGINT, then stops the node and exits 0
// with the chain saved in the data dir; the Tron devnet beside it likewise, its addresses printed in base58. (The database part runs on the embedded database either way: the
// PostgreSQL variant of storing labels and prices is covered by devnet.test.ts.)
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("vigia devnet", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-devnet-cli-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("serves the played scenario until SIGINT", { timeout: 120_000 }, async () => {
    const port = await freePort();
    let tronPort = await freePort();
    while (tronPort === port) tronPort = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, VIGIA_DATA_DIR: dataDir, VIGIA_LOG_LEVEL: "silent" };
    delete env.DATABASE_URL;
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "bin/vigia.js"), "devnet", "--port", String(port), "--tron-port", String(tronPort)],
      {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const deadline = Date.now() + 100_000;
    while (!stdout.includes("Press Ctrl-C")) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`vigia devnet: ${stderr}${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stdout).toContain(`chain 31337 at http://127.0.0.1:${port}`);
    // Deposits into exchanges' (unlabelled) deposit addresses are swept to the exchange in blocks of their own.
    expect(stdout).toMatch(/scenario: played 255 blocks/);
    expect(stdout).toMatch(/store: 7 labels \(source vigia-devnet\), \d+ daily prices, 2 tokens/);
    expect(stdout).toMatch(/mixing +0x[0-9a-f]{40}/);
    const answer = await fetch(`http://127.0.0.1:${port}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    });
    expect(((await answer.json()) as { result: string }).result).toBe("0xff"); // the 255 blocks played after the genesis block
    expect(stdout).toContain(
      `Vigía Tron devnet: chain 728131337 (Tron-kind: base58 addresses) at http://127.0.0.1:${tronPort}`,
    );
    expect(stdout).toMatch(/store: \d+ labels \(source vigia-tron-devnet\)/);
    expect(stdout).toMatch(/frozen +T[1-9A-HJ-NP-Za-km-z]{33} /);
    const tronChain = await fetch(`http://127.0.0.1:${tronPort}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    expect(Number(((await tronChain.json()) as { result: string }).result)).toBe(728131337);

    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stderr).toContain("SIGINT: stopping the devnet");
    expect(fs.existsSync(path.join(dataDir, "devnet", "state.json"))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "devnet", "anvil.json"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "tron-devnet", "state.json"))).toBe(true);
    expect(await freePortIsFree(port)).toBe(true);
    expect(await freePortIsFree(tronPort)).toBe(true);
  });
});

function freePortIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
