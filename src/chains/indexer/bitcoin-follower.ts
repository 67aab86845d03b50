// Follows one Bitcoin chain from a Bitcoin Core node (the chain's `rpc_url`): holds its lock, reads blocks up to
// `head - confirmations` with getblock verbosity 3, stores each transaction as every Bitcoin source stores it
// (src/chains/bitcoin: value-proportional transfers, CoinJoins through their mixer node, inputs into the address
// clusters) with the checkpoint, and unwinds reorgs as the EVM follower does: a batch whose first block does not
// build on the checkpoint's hash walks down to the highest block both chains share, and everything above it is
// deleted in one transaction (store.ts unwindTo). Monitoring sees every confirmed transfer and every unwind in the
// same transactions (the watcher). follow-loop.ts drives the steps and waits out failures.
import type { Kysely } from "kysely";
import { type Checkpoint, readCheckpoint } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";
import type { BitcoinNetwork } from "../address/index.ts";
import { type CoreBlockRead, projectBitcoinTransaction, readCoreBlock } from "../bitcoin/index.ts";
import { BITCOIN_CHAIN_IDS } from "../registry.ts";
import { bitcoinRpcClient, CORE_CHAIN_NAMES, type CoreChainInfo } from "../rpc/bitcoin.ts";
import type { JsonRpcClient } from "../rpc/json-rpc.ts";
import { type BackoffPolicy, DEFAULT_BACKOFF } from "./backoff.ts";
import {
  ChainIdentityError,
  type FollowerHooks,
  type FollowerStatus,
  followChain,
  loopOf,
  startingStatus,
} from "./follow-loop.ts";
import type { ChainLock } from "./lock.ts";
import type { IndexerLog } from "./log.ts";
import { findCommonAncestor, type NodeHashes } from "./reorg.ts";
import { HeadRecorder, partedAt, type ReorgContext, unwindReorg } from "./reorg-steps.ts";
import { DEFAULT_MAX_REORG_DEPTH, type IndexerSettings } from "./settings.ts";
import { type BatchRows, writeBatch } from "./store.ts";

export interface BitcoinFollowerDeps {
  db: Kysely<DB>;
  settings: IndexerSettings;
  network: BitcoinNetwork;
  lock: ChainLock;
  log: IndexerLog;
  rpc?: JsonRpcClient;
  hooks?: FollowerHooks;
  backoff?: BackoffPolicy;
}

/** The chain id Bitcoin's genesis hash gives (docs/decisions/0052-bitcoin-chains.md): its last four bytes. */
export const chainIdOfGenesis = (genesis: string) => Number.parseInt(genesis.slice(-8), 16) & 0x7fffffff;

export class BitcoinFollower {
  readonly chainId: number;
  readonly #db: Kysely<DB>;
  readonly #settings: IndexerSettings;
  readonly #network: BitcoinNetwork;
  readonly #lock: ChainLock;
  readonly #log: IndexerLog;
  readonly #rpc: JsonRpcClient;
  readonly #hooks: FollowerHooks;
  readonly #backoff: BackoffPolicy;
  readonly #abort = new AbortController();
  readonly #nodeHashes: NodeHashes;
  #running: Promise<void> | undefined;
  #checkpoint: Checkpoint | undefined | null = null;
  #target: bigint | undefined;
  #chainChecked = false;
  #batchBlocks = 1;
  #status: FollowerStatus;
  readonly #heads: HeadRecorder;
  readonly #reorg: ReorgContext;

  constructor(deps: BitcoinFollowerDeps) {
    this.chainId = deps.settings.chainId;
    this.#db = deps.db;
    this.#settings = deps.settings;
    this.#network = deps.network;
    this.#lock = deps.lock;
    this.#log = deps.log;
    this.#rpc = deps.rpc ?? bitcoinRpcClient(deps.settings.rpcUrl);
    this.#hooks = deps.hooks ?? {};
    this.#backoff = deps.backoff ?? DEFAULT_BACKOFF;
    this.#nodeHashes = async (low, high, signal) => {
      const calls = [];
      for (let n = low; n <= high; n++) calls.push({ method: "getblockhash", params: [Number(n)] });
      // A height above the node's head is an error object: no hash there.
      const outcomes = await this.#rpc.batch(calls, signal);
      return outcomes.map((o) => (o.ok && typeof o.result === "string" ? o.result.toLowerCase() : undefined));
    };
    this.#heads = new HeadRecorder(this.#db, this.chainId);
    this.#reorg = {
      db: this.#db,
      chainId: this.chainId,
      settings: this.#settings,
      nodeHashes: this.#nodeHashes,
      log: this.#log,
      hooks: this.#hooks,
    };
    this.#status = startingStatus(this.chainId);
  }

  status(): FollowerStatus {
    return { ...this.#status, checkpoint: this.#checkpoint ? this.#checkpoint.number : null };
  }

  start(): void {
    this.#running ??= followChain(
      loopOf(
        {
          settings: this.#settings,
          lock: this.#lock,
          log: this.#log,
          backoff: this.#backoff,
          hooks: this.#hooks,
        },
        this.#status,
      ),
      { step: (signal) => this.#step(signal), forget: () => this.#forget() },
      this.#abort.signal,
    );
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#running;
    this.#status.state = "stopped";
  }

  /**
   * The node serves this network (its getblockchaininfo `chain`, and the genesis block the chain's id comes from),
   * and holds a block the store holds within the reorg depth below the checkpoint. Otherwise it is another chain:
   * ChainIdentityError, and nothing is read or unwound.
   */
  async #checkIdentity(signal: AbortSignal): Promise<void> {
    const info = await this.#rpc.request<CoreChainInfo>("getblockchaininfo", [], signal);
    const expected = CORE_CHAIN_NAMES[this.#network];
    if (info?.chain !== expected) {
      throw new ChainIdentityError(
        `the node at rpc_url serves Bitcoin's "${String(info?.chain)}" chain, not "${expected}" (${this.#network})`,
      );
    }
    const genesis = await this.#rpc.request<string>("getblockhash", [0], signal);
    if (chainIdOfGenesis(genesis) !== BITCOIN_CHAIN_IDS[this.#network]) {
      throw new ChainIdentityError(
        `the node at rpc_url has another genesis block (${genesis}) than ${this.#network}`,
      );
    }
    const checkpoint = await readCheckpoint(this.#db, this.chainId);
    this.#checkpoint = checkpoint;
    if (!checkpoint) return;
    const head = BigInt(await this.#rpc.request<number>("getblockcount", [], signal));
    if (
      head >= checkpoint.number &&
      (await this.#nodeHashes(checkpoint.number, checkpoint.number, signal))[0] === checkpoint.hash
    ) {
      return;
    }
    const depth = this.#settings.maxReorgDepth ?? DEFAULT_MAX_REORG_DEPTH;
    const lowest = max(this.#settings.startBlock, checkpoint.number - depth);
    const top = min(head, checkpoint.number);
    const shared =
      top >= lowest
        ? await findCommonAncestor(this.#nodeHashes, this.#db, this.chainId, top, lowest, signal)
        : undefined;
    if (!shared) {
      throw new ChainIdentityError(
        `the node at rpc_url (height ${head}) shares no block with the store from block ${lowest} to the checkpoint ` +
          `${checkpoint.number}: another chain under chain id ${this.chainId}, or a node far behind`,
      );
    }
  }

  async #step(signal: AbortSignal): Promise<boolean> {
    if (!this.#chainChecked) {
      await this.#checkIdentity(signal);
      this.#chainChecked = true;
    }
    if (this.#checkpoint === null) this.#checkpoint = await readCheckpoint(this.#db, this.chainId);
    const checkpoint = this.#checkpoint;
    const next = checkpoint ? checkpoint.number + 1n : this.#settings.startBlock;
    if (this.#target === undefined || next > this.#target) {
      const head = BigInt(await this.#rpc.request<number>("getblockcount", [], signal));
      this.#status.head = head;
      await this.#heads.record(head);
      this.#target = head - this.#settings.confirmations;
      if (checkpoint && head < checkpoint.number) return this.#nodeBehind(checkpoint, head, signal);
      if (next > this.#target) return false;
    }
    const to = min(next + BigInt(this.#batchBlocks) - 1n, this.#target);
    const blocks = await this.#readBlocks(next, to, signal);
    const first = blocks[0];
    if (!first) return false;
    if (checkpoint && first.parentHash !== checkpoint.hash) {
      await this.#unwind(checkpoint, checkpoint.number, signal);
      return true;
    }
    for (let i = 1; i < blocks.length; i++) {
      if (blocks[i]?.parentHash !== blocks[i - 1]?.hash) {
        // The node switched branches while the batch was read: read it again from the checkpoint.
        throw new Error(`the node's chain changed while blocks ${next}-${to} were read`);
      }
    }
    const rows = this.#rows(blocks);
    const last = blocks[blocks.length - 1] as CoreBlockRead;
    const done: Checkpoint = { number: last.number, hash: last.hash };
    const beforeCommit = this.#hooks.beforeCommit;
    const inserted = await writeBatch(
      this.#db,
      this.chainId,
      rows,
      checkpoint,
      done,
      beforeCommit ? async () => beforeCommit({ from: next, to: last.number }) : undefined,
      this.#hooks.watcher,
    );
    this.#checkpoint = done;
    const transactions = blocks.reduce((n, b) => n + b.transactions.length, 0);
    // About targetBatchTransactions a batch (a mainnet block holds a few thousand: one block a batch).
    const ideal = Math.floor(
      this.#settings.targetBatchTransactions / Math.max(transactions / blocks.length, 1),
    );
    this.#batchBlocks = Math.max(1, Math.min(this.#settings.maxBatchBlocks, ideal));
    this.#hooks.onEvent?.({
      kind: "batch",
      chainId: this.chainId,
      from: next,
      to: last.number,
      transfers: rows.transfers.length,
      inserted,
    });
    return true;
  }

  async #readBlocks(from: bigint, to: bigint, signal: AbortSignal): Promise<CoreBlockRead[]> {
    const hashes: string[] = [];
    for (const [i, hash] of (await this.#nodeHashes(from, to, signal)).entries()) {
      if (hash === undefined)
        throw new Error(`the node has no block ${from + BigInt(i)} (its head moved back)`);
      hashes.push(hash);
    }
    const raw = await this.#rpc.batchResults(
      hashes.map((hash) => ({ method: "getblock", params: [hash, 3] })),
      signal,
    );
    return raw.map((block) => readCoreBlock(block, this.#network));
  }

  #rows(blocks: CoreBlockRead[]): BatchRows {
    const rows: BatchRows = { blocks: [], transfers: [], tokens: [], contracts: [], mixers: [], utxo: [] };
    for (const block of blocks) {
      rows.blocks.push({
        chainId: this.chainId,
        number: block.number,
        hash: block.hash,
        parentHash: block.parentHash,
        timestamp: block.time,
      });
      for (const tx of block.transactions) {
        const projected = projectBitcoinTransaction(tx);
        if (projected.mixer) rows.mixers?.push(projected.mixer);
        if (projected.utxo) rows.utxo?.push(projected.utxo);
        for (const t of projected.transfers) {
          rows.transfers.push({
            chainId: this.chainId,
            txHash: t.txHash,
            logIndex: t.logIndex,
            blockNumber: block.number,
            blockTime: block.time,
            from: t.from,
            to: t.to,
            token: t.token,
            value: BigInt(t.value),
          });
        }
      }
    }
    return rows;
  }

  async #nodeBehind(checkpoint: Checkpoint, head: bigint, signal: AbortSignal): Promise<boolean> {
    if (!(await partedAt(this.#reorg, head, signal))) return false;
    await this.#unwind(checkpoint, head, signal);
    return true;
  }

  async #unwind(checkpoint: Checkpoint, searchFrom: bigint, signal: AbortSignal): Promise<void> {
    this.#checkpoint = await unwindReorg(this.#reorg, checkpoint, searchFrom, signal);
    this.#target = undefined;
  }

  #forget(): void {
    this.#chainChecked = false;
    this.#checkpoint = null;
    this.#target = undefined;
    // After a failure, one block at a time until a batch succeeds: a batch of large blocks that timed out is not
    // asked again whole.
    this.#batchBlocks = 1;
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
