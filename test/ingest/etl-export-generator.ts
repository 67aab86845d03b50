// A seeded generator of ethereum-etl CSV exports (blocks, transactions, token_transfers, tokens, contracts) for
// the import tests and bench/import-etl.ts. Rows look like ethereum-etl's (same columns, hex forms, block order);
// the numbers are made up. Writes as it goes, so a 5-million-transfer export needs no more memory than a small one.
//
// Of every 5 transactions, 3 move native value, 1 is a zero-value token call emitting 3 token transfers and 1 is a
// zero-value contract call with no transfer; every 40th value transaction failed (receipt_status 0). `transfers`
// counts what the import must store: value transactions that succeeded plus token transfers.
import fs from "node:fs";
import path from "node:path";
import { Rng } from "../../src/platform/rng.ts";

export interface GeneratedExport {
  dir: string;
  /** transfers the import must store (native + token) */
  transfers: number;
  nativeTransfers: number;
  tokenTransfers: number;
  transactions: number;
  failedTransactions: number;
  blocks: number;
  tokens: number;
  contracts: number;
  /** The same transfers in the store's columns (chain_id first), when `transfersCsv` was asked for. */
  transfersCsv?: string;
}

export interface GenerateOptions {
  dir: string;
  /** at least this many transfers (the last block is completed) */
  transfers: number;
  seed?: number;
  /** also write the expected transfers as a CSV in the store's columns (chain_id first), expected_transfers.csv */
  transfersCsv?: boolean;
  /** chain id written into expected_transfers.csv (default 1) */
  chainId?: number;
  /** number of distinct user addresses */
  addresses?: number;
  transfersPerBlock?: number;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex(random: () => number, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = (random() * 4294967296) >>> 0;
    out += `${HEX[x & 255]}${HEX[(x >>> 8) & 255]}${HEX[(x >>> 16) & 255]}${HEX[x >>> 24]}`;
  }
  return out.length === chars ? out : out.slice(0, chars);
}

/** Buffers lines and writes them in large chunks (synchronously: the generator is not the thing measured). */
class LineWriter {
  #fd: number;
  #parts: string[] = [];
  #size = 0;
  constructor(file: string, header: string) {
    this.#fd = fs.openSync(file, "w");
    this.write(header);
  }
  write(line: string) {
    this.#parts.push(line, "\n");
    this.#size += line.length + 1;
    if (this.#size > 1 << 20) this.flush();
  }
  flush() {
    fs.writeSync(this.#fd, this.#parts.join(""));
    this.#parts = [];
    this.#size = 0;
  }
  close() {
    this.flush();
    fs.closeSync(this.#fd);
  }
}

const TX_HEADER =
  "hash,nonce,block_hash,block_number,transaction_index,from_address,to_address,value,gas,gas_price,input," +
  "block_timestamp,max_fee_per_gas,max_priority_fee_per_gas,transaction_type,receipt_status,receipt_contract_address";
const TT_HEADER = "token_address,from_address,to_address,value,transaction_hash,log_index,block_number";
const BLOCK_HEADER = "number,hash,parent_hash,miner,gas_limit,gas_used,timestamp,transaction_count";
const TOKEN_HEADER = "address,symbol,name,decimals,total_supply,block_number";
const CONTRACT_HEADER = "address,bytecode,function_sighashes,is_erc20,is_erc721,block_number";

export function generateEtlExport(options: GenerateOptions): GeneratedExport {
  const random = new Rng(options.seed ?? 42).asFunction();
  const perBlock = options.transfersPerBlock ?? 100;
  const chain = options.chainId ?? 1;
  const addressCount = options.addresses ?? 50_000;
  fs.mkdirSync(options.dir, { recursive: true });

  const addresses = Array.from({ length: addressCount }, () => `0x${hex(random, 40)}`);
  // A few busy addresses (exchanges) and a long tail.
  const pick = () => addresses[Math.floor(addressCount * random() ** 2)] as string;
  const tokenAddresses = Array.from({ length: 20 }, () => `0x${hex(random, 40)}`);
  const otherContracts = Array.from({ length: 30 }, () => `0x${hex(random, 40)}`);

  const tx = new LineWriter(path.join(options.dir, "transactions.csv"), TX_HEADER);
  const tt = new LineWriter(path.join(options.dir, "token_transfers.csv"), TT_HEADER);
  const blocks = new LineWriter(path.join(options.dir, "blocks.csv"), BLOCK_HEADER);
  const expected = options.transfersCsv
    ? new LineWriter(
        path.join(options.dir, "expected_transfers.csv"),
        "chain_id,tx_hash,log_index,block_number,block_time,from_address,to_address,token,value",
      )
    : undefined;

  const result: GeneratedExport = {
    dir: options.dir,
    transfers: 0,
    nativeTransfers: 0,
    tokenTransfers: 0,
    transactions: 0,
    failedTransactions: 0,
    blocks: 0,
    tokens: tokenAddresses.length,
    contracts: tokenAddresses.length + otherContracts.length,
  };
  let blockNumber = 15_000_000;
  let timestamp = 1_660_000_000;
  let parentHash = `0x${hex(random, 64)}`;
  let valueTxCount = 0;

  while (result.transfers < options.transfers) {
    const blockHash = `0x${hex(random, 64)}`;
    const blockTime = new Date(timestamp * 1000).toISOString();
    let inBlock = 0;
    let index = 0;
    let logIndex = 0;
    while (inBlock < perBlock) {
      const kind = index % 5; // 0-2 value, 3 token call, 4 plain contract call
      const hash = `0x${hex(random, 64)}`;
      const from = pick();
      const common = `${Math.floor(random() * 1000)},${blockHash},${blockNumber},${index},${from}`;
      const gasPrice = 20_000_000_000 + Math.floor(random() * 1e9);
      if (kind <= 2) {
        const to = pick();
        const value = `${BigInt(Math.floor(random() * 1e9) + 1) * 1_000_000_000n}`;
        const failed = valueTxCount++ % 40 === 39;
        tx.write(
          `${hash},${common},${to},${value},21000,${gasPrice},0x,${timestamp},${gasPrice},1000000000,2,${failed ? 0 : 1},`,
        );
        if (failed) result.failedTransactions++;
        else {
          result.nativeTransfers++;
          inBlock++;
          expected?.write(`${chain},${hash},-1,${blockNumber},${blockTime},${from},${to},native,${value}`);
        }
      } else if (kind === 3) {
        const token = tokenAddresses[Math.floor(random() * tokenAddresses.length)] as string;
        tx.write(
          `${hash},${common},${token},0,90000,${gasPrice},0xa9059cbb${hex(random, 128)},${timestamp},${gasPrice},1000000000,2,1,`,
        );
        for (let k = 0; k < 3; k++) {
          const to = pick();
          const sender = k === 0 ? from : pick();
          const value = `${BigInt(Math.floor(random() * 1e12)) * 1_000_000n}`;
          tt.write(`${token},${sender},${to},${value},${hash},${logIndex},${blockNumber}`);
          expected?.write(
            `${chain},${hash},${logIndex},${blockNumber},${blockTime},${sender},${to},${token},${value}`,
          );
          logIndex++;
          result.tokenTransfers++;
          inBlock++;
        }
      } else {
        const to = otherContracts[Math.floor(random() * otherContracts.length)] as string;
        tx.write(
          `${hash},${common},${to},0,60000,${gasPrice},0x095ea7b3${hex(random, 64)},${timestamp},${gasPrice},1000000000,2,1,`,
        );
      }
      result.transactions++;
      index++;
    }
    blocks.write(
      `${blockNumber},${blockHash},${parentHash},${pick()},30000000,12000000,${timestamp},${index}`,
    );
    result.blocks++;
    result.transfers += inBlock;
    parentHash = blockHash;
    blockNumber++;
    timestamp += 12;
  }
  tx.close();
  tt.close();
  blocks.close();
  expected?.close();
  if (expected) result.transfersCsv = path.join(options.dir, "expected_transfers.csv");

  const tokens = new LineWriter(path.join(options.dir, "tokens.csv"), TOKEN_HEADER);
  tokenAddresses.forEach((address, i) => {
    tokens.write(`${address},TK${i},Token ${i},${i % 3 === 0 ? 6 : 18},1000000000000,${15_000_000 - i}`);
  });
  tokens.close();
  const contracts = new LineWriter(path.join(options.dir, "contracts.csv"), CONTRACT_HEADER);
  for (const address of [...tokenAddresses, ...otherContracts]) {
    contracts.write(`${address},0x6080,"0xa9059cbb,0x095ea7b3",true,false,14999000`);
  }
  contracts.close();
  return result;
}
