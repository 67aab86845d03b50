// A chain written as the indexer writes it, for monitoring and report tests: each call adds one block with native
// or token transfers (through the indexer's writeBatch, with the monitoring watcher), so the transfers of monitored addresses
// are recorded exactly as in production.
import type { Kysely } from "kysely";
import { type Checkpoint, writeBatch } from "../../src/chains/indexer/index.ts";
import { monitoringWatcher } from "../../src/monitoring/index.ts";
import type { DB } from "../../src/schema.ts";

export interface NativeTransfer {
  from: string;
  to: string;
  value: bigint;
  /** a token contract's address (a Transfer log, index 0): the native coin when absent */
  token?: string;
}

export class MonitoredChain {
  #checkpoint: Checkpoint | undefined;
  #block = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly chainId: number,
  ) {}

  /** Writes the next block at `time` with these transfers (tx hashes derived from the block and position); their hashes. */
  async block(time: Date, transfers: NativeTransfer[]): Promise<string[]> {
    this.#block += 1;
    const block = this.#block;
    const hashes = transfers.map((_, i) => `0x${(block * 100 + i).toString(16).padStart(64, "d")}`);
    const next = { number: BigInt(block), hash: `0x${block.toString(16).padStart(64, "c")}` };
    await writeBatch(
      this.db,
      this.chainId,
      {
        blocks: [
          {
            chainId: this.chainId,
            number: next.number,
            hash: next.hash,
            parentHash: this.#checkpoint?.hash ?? null,
            timestamp: time,
          },
        ],
        transfers: transfers.map((t, i) => ({
          chainId: this.chainId,
          txHash: hashes[i]!,
          logIndex: t.token ? 0 : -1,
          blockNumber: next.number,
          blockTime: time,
          from: t.from,
          to: t.to,
          token: t.token ?? "native",
          value: t.value,
        })),
        tokens: [],
        contracts: [],
      },
      this.#checkpoint,
      next,
      undefined,
      monitoringWatcher,
    );
    this.#checkpoint = next;
    return hashes;
  }

  /** The number of the last block written. */
  get head(): number {
    return this.#block;
  }
}
