// A stand-in for Bitcoin Core's JSON-RPC on 127.0.0.1, answering from blocks held in the shape getblock writes
// with verbosity 3 (src/chains/rpc/bitcoin.ts's types): getblockchaininfo, getblockcount, getblockhash and
// getblock, single or batched, JSON-RPC 1.0 style (`error: null` beside a result) as Core answers, behind basic
// authentication as Core is (401 with an empty body when it fails). The test replaces the blocks to make a reorg.
// What it does not imitate: Core's other methods, its work queue limits, and its HTTP keep-alive behaviour.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { CoreBlock, CoreTransaction } from "../../../src/chains/rpc/index.ts";

export const GENESIS = {
  main: "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f",
  regtest: "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206",
} as const;

export const hashOf = (label: string) => createHash("sha256").update(label).digest("hex");

export interface StandInCore {
  url: string;
  /** heights to blocks (the genesis included); replace entries to reorganise */
  blocks: Map<number, CoreBlock>;
  chain: string;
  calls: string[];
  close(): Promise<void>;
}

export async function startStandInCore(opts: {
  user: string;
  password: string;
  chain: string;
}): Promise<StandInCore> {
  const state = { blocks: new Map<number, CoreBlock>(), chain: opts.chain, calls: [] as string[] };
  const expected = `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString("base64")}`;
  const tip = () => Math.max(...state.blocks.keys());
  const answer = (call: { id: unknown; method: string; params?: unknown[] }) => {
    state.calls.push(call.method);
    const ok = (result: unknown) => ({ result, error: null, id: call.id });
    const fail = (code: number, message: string) => ({ result: null, error: { code, message }, id: call.id });
    const params = call.params ?? [];
    switch (call.method) {
      case "getblockchaininfo":
        return ok({ chain: state.chain, blocks: tip(), bestblockhash: state.blocks.get(tip())?.hash });
      case "getblockcount":
        return ok(tip());
      case "getblockhash": {
        const block = state.blocks.get(Number(params[0]));
        return block ? ok(block.hash) : fail(-8, "Block height out of range");
      }
      case "getblock": {
        const block = [...state.blocks.values()].find((b) => b.hash === params[0]);
        if (!block) return fail(-5, "Block not found");
        if (params[1] !== 3) return fail(-8, "the stand-in answers verbosity 3 only");
        return ok(block);
      }
      default:
        return fail(-32601, "Method not found");
    }
  };
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="jsonrpc"' });
      res.end();
      return;
    }
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const parsed = JSON.parse(body);
      const out = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://${opts.user}:${opts.password}@127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A block of `txs` at `height` on `parent`, its hash from `label`, mined at `time` (unix seconds). */
export function coreBlock(
  label: string,
  height: number,
  parent: string | undefined,
  txs: CoreTransaction[],
  time = 1_700_000_000 + height * 600,
): CoreBlock {
  return {
    hash: hashOf(label),
    height,
    time,
    ...(parent ? { previousblockhash: parent } : {}),
    tx: txs,
  };
}

const output = (address: string | null, btc: number, n: number) => ({
  value: btc,
  n,
  scriptPubKey: address ? { type: "witness_v0_keyhash", address } : { type: "nulldata" },
});

/** A coinbase paying `miner` 50 BTC. */
export const coinbase = (label: string, miner: string): CoreTransaction => ({
  txid: hashOf(`coinbase ${label}`),
  vin: [{ coinbase: "03" }],
  vout: [output(miner, 50, 0)],
});

/** A payment: each input an address and the BTC its spent output held, each output an address and BTC. */
export const payment = (
  label: string,
  inputs: [string, number][],
  outputs: [string, number][],
): CoreTransaction => ({
  txid: hashOf(label),
  vin: inputs.map(([address, btc], k) => ({
    txid: hashOf(`${label} funding ${k}`),
    vout: 0,
    prevout: {
      generated: false,
      height: 1,
      value: btc,
      scriptPubKey: { type: "witness_v0_keyhash", address },
    },
  })),
  vout: outputs.map(([address, btc], n) => output(address, btc, n)),
});
