// A stand-in for a java-tron node at the network edge, on 127.0.0.1: its /jsonrpc answers the way java-tron's
// TronJsonRpcImpl does (per framework/src/main/java/org/tron/core/services/jsonrpc in tronprotocol/java-tron), and
// its HTTP API serves /wallet/getblockbylimitnext. What the tests rely on:
// - transactions as TransactionResult writes them: `type` always "0x0"; `value` per JsonRpcApiUtil.getTransactionAmount
//   (TransferContract: amount; TransferAssetContract: the TRC-10 amount; TriggerSmartContract: call_value;
//   FreezeBalanceContract: frozen balance; VoteWitnessContract: the votes); `to` per getToAddress (null without one);
//   `input` only a TriggerSmartContract's data, "0x" otherwise;
// - no eth_getBlockReceipts (method not found); eth_getLogs over more than 5000 blocks refused
//   (LogFilterWrapper: "exceed max block range"); batches above 100 calls refused; the tags pending and safe refused.
// The chain is a list of blocks the test builds; it records what it was asked.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TronContractType =
  | "TransferContract"
  | "TransferAssetContract"
  | "TriggerSmartContract"
  | "FreezeBalanceContract"
  | "VoteWitnessContract";

export interface StandInLog {
  address: string;
  topics: string[];
  data: string;
}

export interface StandInTx {
  type: TronContractType;
  from: string;
  to: string | null;
  /** What the contract carries: sun, a TRC-10 amount, call_value, frozen balance or votes, by type. */
  amount: bigint;
  /** A TriggerSmartContract's data. */
  data?: string;
  logs?: StandInLog[];
}

interface Block {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  txs: (StandInTx & { hash: string })[];
}

export const STAND_IN_MAX_BATCH = 100;
export const STAND_IN_MAX_LOG_RANGE = 5000;
const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const word = (n: number, salt: string) => `${salt}${n.toString(16).padStart(64 - salt.length, "0")}`;

export class TronNodeStandIn {
  readonly asked = new Map<string, number>();
  readonly logRanges: number[] = [];
  readonly batchSizes: number[] = [];
  readonly blocks: Block[] = [];
  #server: http.Server | undefined;
  #url = "";

  constructor(readonly chainId: number) {
    this.addBlock([]); // genesis
  }

  get url(): string {
    return this.#url;
  }

  /** Appends a block (of `count` empty blocks when txs is empty and count is given). */
  addBlock(txs: StandInTx[]): number {
    const number = this.blocks.length;
    // java-tron's block id: the number in the first 8 bytes, then 24 bytes of the header hash.
    const hash = `0x${number.toString(16).padStart(16, "0")}${word(number, "b1").slice(16)}`;
    const parentHash = number === 0 ? `0x${"0".repeat(64)}` : (this.blocks[number - 1] as Block).hash;
    this.blocks.push({
      number,
      hash,
      parentHash,
      timestamp: 1_700_000_000 + number * 3,
      txs: txs.map((tx, i) => ({ ...tx, hash: `0x${word(number * 1000 + i, "7a")}` })),
    });
    return number;
  }

  addEmptyBlocks(count: number): void {
    for (let i = 0; i < count; i++) this.addBlock([]);
  }

  async start(): Promise<void> {
    this.#server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        res.setHeader("content-type", "application/json");
        if (req.method === "POST" && url.pathname === "/jsonrpc") {
          res.end(JSON.stringify(this.#jsonRpc(JSON.parse(body))));
        } else if (url.pathname === "/wallet/getblockbylimitnext") {
          this.#count("http:getblockbylimitnext");
          res.end(JSON.stringify(this.#blocksByLimit(url)));
        } else {
          res.statusCode = 404;
          res.end("{}");
        }
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/jsonrpc`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  #count(method: string) {
    this.asked.set(method, (this.asked.get(method) ?? 0) + 1);
  }

  #jsonRpc(body: unknown): unknown {
    if (Array.isArray(body)) {
      this.batchSizes.push(body.length);
      if (body.length > STAND_IN_MAX_BATCH) {
        return { jsonrpc: "2.0", id: null, error: { code: -32005, message: "batch size exceeds the limit" } };
      }
      return body.map((call) => this.#call(call as Call));
    }
    return this.#call(body as Call);
  }

  #call({ id, method, params = [] }: Call): unknown {
    this.#count(method);
    try {
      return { jsonrpc: "2.0", id, result: this.#answer(method, params) };
    } catch (error) {
      const { code, message } = error as RpcFailure;
      return { jsonrpc: "2.0", id, error: { code: code ?? -32602, message: message ?? String(error) } };
    }
  }

  #answer(method: string, params: unknown[]): unknown {
    switch (method) {
      case "eth_chainId":
        return hex(this.chainId);
      case "eth_blockNumber":
        return hex(this.blocks.length - 1);
      case "eth_getBlockByNumber": {
        const block = this.blocks[this.#number(params[0])];
        return block ? this.#block(block, params[1] === true) : null;
      }
      case "eth_getTransactionReceipt":
        return this.#receipt(String(params[0]));
      case "eth_getLogs":
        return this.#logs(params[0] as LogFilter);
      case "eth_getCode": {
        const address = String(params[0]).toLowerCase();
        const isContract = this.blocks.some((b) =>
          b.txs.some((t) => t.logs?.some((l) => l.address === address)),
        );
        return isContract ? "0x6080" : "0x";
      }
      case "eth_call":
        throw failure(-32000, "REVERT opcode executed");
      default:
        // eth_getBlockReceipts among them: java-tron's TronJsonRpc declares no such method.
        throw failure(-32601, `the method ${method} does not exist/is not available`);
    }
  }

  #number(tag: unknown): number {
    if (tag === "latest" || tag === "finalized") return this.blocks.length - 1;
    if (tag === "earliest") return 0;
    if (tag === "pending") throw failure(-32602, "TAG pending not supported");
    if (typeof tag !== "string" || !/^0x[0-9a-f]+$/.test(tag)) throw failure(-32602, "invalid block number");
    return Number(BigInt(tag));
  }

  #tx(block: Block, tx: Block["txs"][number], index: number) {
    const trigger = tx.type === "TriggerSmartContract";
    return {
      blockHash: block.hash,
      blockNumber: hex(block.number),
      from: tx.from,
      gas: trigger ? "0x3a98" : "0x0",
      gasPrice: "0xd2",
      hash: tx.hash,
      input: trigger ? (tx.data ?? "0x") : "0x",
      nonce: "0x0000000000000000",
      r: `0x${"11".repeat(32)}`,
      s: `0x${"22".repeat(32)}`,
      to: tx.to,
      transactionIndex: hex(index),
      type: "0x0",
      v: "0x1b",
      value: hex(tx.amount),
    };
  }

  #block(block: Block, full: boolean) {
    return {
      number: hex(block.number),
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: hex(block.timestamp),
      transactions: block.txs.map((tx, i) => (full ? this.#tx(block, tx, i) : tx.hash)),
    };
  }

  #logsOf(block: Block) {
    let logIndex = 0;
    return block.txs.flatMap((tx, txIndex) =>
      (tx.logs ?? []).map((log) => ({
        address: log.address,
        topics: log.topics,
        data: log.data,
        blockHash: block.hash,
        blockNumber: hex(block.number),
        transactionHash: tx.hash,
        transactionIndex: hex(txIndex),
        logIndex: hex(logIndex++),
        removed: false,
      })),
    );
  }

  #receipt(hash: string) {
    for (const block of this.blocks) {
      const index = block.txs.findIndex((t) => t.hash === hash);
      if (index < 0) continue;
      const tx = block.txs[index] as Block["txs"][number];
      return {
        blockHash: block.hash,
        blockNumber: hex(block.number),
        contractAddress: null,
        cumulativeGasUsed: "0x0",
        effectiveGasPrice: "0xd2",
        from: tx.from,
        gasUsed: tx.type === "TriggerSmartContract" ? "0x3a98" : "0x0",
        logs: this.#logsOf(block).filter((l) => l.transactionHash === hash),
        logsBloom: `0x${"00".repeat(256)}`,
        status: "0x1",
        to: tx.to,
        transactionHash: hash,
        transactionIndex: hex(index),
        type: "0x0",
      };
    }
    return null;
  }

  #logs(filter: LogFilter) {
    const from = this.#number(filter.fromBlock ?? "latest");
    const to = Math.min(this.#number(filter.toBlock ?? "latest"), this.blocks.length - 1);
    this.logRanges.push(to - from + 1);
    if (to - from > STAND_IN_MAX_LOG_RANGE)
      throw failure(-32602, `exceed max block range: ${STAND_IN_MAX_LOG_RANGE}`);
    const addresses =
      filter.address === undefined ? null : [filter.address].flat().map((a) => a.toLowerCase());
    const topic0 = filter.topics?.[0];
    const topics = topic0 === undefined || topic0 === null ? null : [topic0].flat();
    return this.blocks
      .slice(from, to + 1)
      .flatMap((b) => this.#logsOf(b))
      .filter(
        (l) =>
          (!addresses || addresses.includes(l.address)) && (!topics || topics.includes(l.topics[0] ?? "")),
      );
  }

  #blocksByLimit(url: URL) {
    const start = Number(url.searchParams.get("startNum"));
    const end = Number(url.searchParams.get("endNum"));
    if (!(end > start && end - start <= 100)) return {};
    return {
      block: this.blocks.slice(start, end).map((b) => ({
        blockID: b.hash.slice(2),
        block_header: { raw_data: { number: b.number, timestamp: b.timestamp * 1000 } },
        ...(b.txs.length > 0
          ? {
              transactions: b.txs.map((tx) => ({
                ret: [{ contractRet: "SUCCESS" }],
                txID: tx.hash.slice(2),
                raw_data: { contract: [{ type: tx.type, parameter: { value: {} } }] },
              })),
            }
          : {}),
      })),
    };
  }
}

interface Call {
  id: number;
  method: string;
  params?: unknown[];
}
interface LogFilter {
  fromBlock?: string;
  toBlock?: string;
  address?: string | string[];
  topics?: (string | string[] | null)[];
}
interface RpcFailure {
  code?: number;
  message?: string;
}
const failure = (code: number, message: string) => Object.assign(new Error(message), { code });
