// Follows one EVM or Tron chain: holds its lock, reads batches of blocks up to `head - confirmations`, stores them
// with the checkpoint, unwinds reorgs, and never gives up (follow-loop.ts drives the steps). Reading the next batch
// overlaps writing the current one.
import type { Kysely } from "kysely";
import { type Checkpoint, knownTokens, readCheckpoint } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";
import { hexToBigInt, type RpcBlock, toHex } from "../rpc/evm.ts";
import { JsonRpcClient } from "../rpc/json-rpc.ts";
import { type BackoffPolicy, DEFAULT_BACKOFF } from "./backoff.ts";
import { AddressKindCache, withCode } from "./contracts.ts";
import { extractRange } from "./extract.ts";
import { type FetchedRange, RangeFetcher } from "./fetch-range.ts";
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
import { evmNodeHashes, findCommonAncestor } from "./reorg.ts";
import { HeadRecorder, partedAt, type ReorgContext, unwindReorg } from "./reorg-steps.ts";
import { DEFAULT_MAX_REORG_DEPTH, type IndexerSettings } from "./settings.ts";
import { type BatchRows, writeBatch } from "./store.ts";
import { readTokenMetadata } from "./token-metadata.ts";
import { trxMovingTransactions } from "./tron-values.ts";

export {
  ChainIdentityError,
  type FollowerEvent,
  type FollowerHooks,
  type FollowerStatus,
} from "./follow-loop.ts";

export interface FollowerDeps {
  db: Kysely<DB>;
  settings: IndexerSettings;
  lock: ChainLock;
  log: IndexerLog;
  rpc?: JsonRpcClient;
  hooks?: FollowerHooks;
  backoff?: BackoffPolicy;
}

interface PreparedBatch {
  range: FetchedRange;
  rows: BatchRows;
  /** What the caches learn once the batch commits. */
  learned: { contracts: string[]; accounts: string[] };
}

const FIRST_BATCH_BLOCKS = 10;

export class ChainFollower {
  readonly chainId: number;
  readonly #db: Kysely<DB>;
  readonly #settings: IndexerSettings;
  readonly #lock: ChainLock;
  readonly #log: IndexerLog;
  readonly #rpc: JsonRpcClient;
  readonly #fetcher: RangeFetcher;
  readonly #hooks: FollowerHooks;
  readonly #backoff: BackoffPolicy;
  readonly #abort = new AbortController();
  /**
   * Tokens whose metadata is stored or is being read by a batch in flight (marked when read, so the batch read
   * ahead does not read it again). Cleared whenever a batch is dropped uncommitted: the store says the rest.
   */
  readonly #tokens = new AddressKindCache(50_000);
  readonly #kinds = new AddressKindCache(200_000);
  #running: Promise<void> | undefined;
  /** null: not read from the store yet (or forgotten after a failure). */
  #checkpoint: Checkpoint | undefined | null = null;
  #target: bigint | undefined;
  #prefetch: { from: bigint; to: bigint; batch: Promise<PreparedBatch> } | undefined;
  #batchBlocks: number;
  /** The node was checked to serve this chain (again after every failure: it may have been replaced). */
  #chainChecked = false;
  #status: FollowerStatus;
  readonly #heads: HeadRecorder;
  readonly #reorg: ReorgContext;

  constructor(deps: FollowerDeps) {
    this.chainId = deps.settings.chainId;
    this.#db = deps.db;
    this.#settings = deps.settings;
    this.#lock = deps.lock;
    this.#log = deps.log;
    this.#rpc = deps.rpc ?? new JsonRpcClient(deps.settings.rpcUrl);
    this.#fetcher = new RangeFetcher(this.#rpc, {
      // Tron's /jsonrpc has no eth_getBlockReceipts: asking would cost every first batch a failed call.
      mode: deps.settings.kind === "tron" ? "logs-and-receipts" : "block-receipts",
      freezeContracts: deps.settings.issuerFreezeContracts,
    });
    this.#hooks = deps.hooks ?? {};
    this.#backoff = deps.backoff ?? DEFAULT_BACKOFF;
    // Small until the first batch tells how busy the chain's blocks are.
    this.#batchBlocks = Math.min(FIRST_BATCH_BLOCKS, deps.settings.maxBatchBlocks);
    this.#heads = new HeadRecorder(this.#db, this.chainId);
    this.#reorg = {
      db: this.#db,
      chainId: this.chainId,
      settings: this.#settings,
      nodeHashes: evmNodeHashes(this.#rpc),
      log: this.#log,
      hooks: this.#hooks,
    };
    this.#status = startingStatus(this.chainId);
  }

  status(): FollowerStatus {
    return { ...this.#status, checkpoint: this.#checkpoint ? this.#checkpoint.number : null };
  }

  start(): void {
    this.#running ??= this.#run();
  }

  /** Stops after the batch in flight (if any) commits or rolls back, and releases the chain's lock. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#running;
    this.#status.state = "stopped";
  }

  /**
   * Before reading a node (at start, and again after any failure or change of lock holder): the node serves this
   * chain id, and holds a block the store holds. The checkpoint's block at the same hash is the usual answer; when
   * it differs or the node's head is below it, the node must share a stored block at most maxReorgDepth (1000 for
   * the devnet, which unwinds without limit) below the checkpoint: that is a reorg (or a node a little behind),
   * which the normal steps handle. Sharing none there, it is another chain under the same id (a fresh or
   * foreign node, or one far behind): ChainIdentityError.
   */
  async #checkIdentity(signal: AbortSignal): Promise<void> {
    const served = hexToBigInt(await this.#rpc.request<string>("eth_chainId", [], signal));
    if (served !== this.#settings.nodeChainId) {
      throw new ChainIdentityError(
        `the node at rpc_url serves chain ${served}, not chain ${this.#settings.nodeChainId}`,
      );
    }
    const checkpoint = await readCheckpoint(this.#db, this.chainId);
    this.#checkpoint = checkpoint;
    if (!checkpoint) return;
    const head = hexToBigInt(await this.#rpc.request<string>("eth_blockNumber", [], signal));
    if (head >= checkpoint.number) {
      const block = await this.#rpc.request<RpcBlock<string> | null>(
        "eth_getBlockByNumber",
        [toHex(checkpoint.number), false],
        signal,
      );
      if (block?.hash?.toLowerCase() === checkpoint.hash.toLowerCase()) return;
    }
    const depth = this.#settings.maxReorgDepth ?? DEFAULT_MAX_REORG_DEPTH;
    const lowest = max(this.#settings.startBlock, checkpoint.number - depth);
    const top = min(head, checkpoint.number);
    const shared =
      top >= lowest
        ? await findCommonAncestor(evmNodeHashes(this.#rpc), this.#db, this.chainId, top, lowest, signal)
        : undefined;
    if (!shared) {
      throw new ChainIdentityError(
        `the node at rpc_url (head ${head}) shares no block with the store from block ${lowest} to the checkpoint ` +
          `${checkpoint.number}: another chain under chain id ${this.chainId} (a fresh or foreign node, or one far behind)`,
      );
    }
  }

  async #run(): Promise<void> {
    const work = { step: (signal: AbortSignal) => this.#step(signal), forget: () => this.#forget() };
    await followChain(
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
      work,
      this.#abort.signal,
    );
    this.#discardPrefetch();
  }

  /** One move: a batch stored, a reorg unwound (true), or nothing to do yet (false). */
  async #step(signal: AbortSignal): Promise<boolean> {
    if (!this.#chainChecked) {
      // A misconfigured rpc_url (another network's node, another program's anvil on the port) must neither write
      // its blocks under this chain's id nor unwind what the store holds.
      await this.#checkIdentity(signal);
      this.#chainChecked = true;
    }
    if (this.#checkpoint === null) this.#checkpoint = await readCheckpoint(this.#db, this.chainId);
    const checkpoint = this.#checkpoint;
    const next = checkpoint ? checkpoint.number + 1n : this.#settings.startBlock;
    if (this.#target === undefined || next > this.#target) {
      const head = hexToBigInt(await this.#rpc.request<string>("eth_blockNumber", [], signal));
      this.#status.head = head;
      await this.#heads.record(head);
      this.#target = head - this.#settings.confirmations;
      if (checkpoint && head < checkpoint.number) return this.#nodeBehind(checkpoint, head, signal);
      if (next > this.#target) return false;
    }
    const target = this.#target;
    const to = min(next + BigInt(this.#batchBlocks) - 1n, target);
    const prepared = await this.#take(next, to, signal);
    const { range } = prepared;
    const first = range.blocks[0];
    if (checkpoint && first && first.parentHash !== checkpoint.hash) {
      await this.#unwind(checkpoint, checkpoint.number, signal);
      return true;
    }
    const after = range.to + 1n;
    if (after <= target)
      this.#startPrefetch(after, min(after + BigInt(this.#batchBlocks) - 1n, target), signal);

    const last = range.blocks[range.blocks.length - 1];
    if (!last) return false;
    const done: Checkpoint = { number: last.number, hash: last.hash };
    const beforeCommit = this.#hooks.beforeCommit;
    const inserted = await writeBatch(
      this.#db,
      this.chainId,
      prepared.rows,
      checkpoint,
      done,
      beforeCommit ? async () => beforeCommit({ from: range.from, to: range.to }) : undefined,
      this.#hooks.watcher,
      this.#hooks.issuerFreezes,
    );
    this.#checkpoint = done;
    for (const address of prepared.learned.contracts) this.#kinds.set(address, true);
    for (const address of prepared.learned.accounts) this.#kinds.set(address, false);
    this.#resize(range);
    this.#hooks.onEvent?.({
      kind: "batch",
      chainId: this.chainId,
      from: range.from,
      to: range.to,
      transfers: prepared.rows.transfers.length,
      inserted,
    });
    return true;
  }

  async #nodeBehind(checkpoint: Checkpoint, head: bigint, signal: AbortSignal): Promise<boolean> {
    if (!(await partedAt(this.#reorg, head, signal))) return false;
    await this.#unwind(checkpoint, head, signal);
    return true;
  }

  async #unwind(checkpoint: Checkpoint, searchFrom: bigint, signal: AbortSignal): Promise<void> {
    this.#discardPrefetch();
    this.#tokens.clear(); // the batch that found the reorg is not stored either
    this.#checkpoint = await unwindReorg(this.#reorg, checkpoint, searchFrom, signal);
    this.#target = undefined;
  }

  /** The prepared batch for [from, to]: the prefetched one when it starts there, else read now. */
  async #take(from: bigint, to: bigint, signal: AbortSignal): Promise<PreparedBatch> {
    const prefetch = this.#prefetch;
    if (prefetch && prefetch.from === from) {
      this.#prefetch = undefined;
      return prefetch.batch;
    }
    this.#discardPrefetch();
    return this.#prepare(from, to, signal);
  }

  #startPrefetch(from: bigint, to: bigint, signal: AbortSignal): void {
    const batch = this.#prepare(from, to, signal);
    batch.catch(() => {}); // observed when taken; a discarded one must not be an unhandled rejection
    this.#prefetch = { from, to, batch };
  }

  #discardPrefetch(): void {
    if (!this.#prefetch) return;
    this.#prefetch = undefined;
    this.#tokens.clear(); // it marked the tokens it read, and will not store them
  }

  /** Forgets what may be stale after a failure or a change of lock holder: it is read again from the store. */
  #forget(): void {
    this.#chainChecked = false;
    this.#checkpoint = null;
    this.#target = undefined;
    this.#discardPrefetch();
    this.#tokens.clear();
  }

  /** Reads a range and everything its rows need from the node: token metadata, code of candidate contracts. */
  async #prepare(from: bigint, to: bigint, signal: AbortSignal): Promise<PreparedBatch> {
    const range = await this.#fetcher.fetch(from, to, signal);
    const { tronWalletUrl } = this.#settings;
    const extracted = extractRange(
      this.chainId,
      range,
      tronWalletUrl !== null
        ? { nativeValueOf: await trxMovingTransactions(tronWalletUrl, range, signal) }
        : {},
    );

    const unseenTokens = [...extracted.tokens].filter((t) => this.#tokens.get(t) === undefined);
    const stored = await knownTokens(this.#db, this.chainId, unseenTokens);
    const toRead = unseenTokens.filter((t) => !stored.has(t));
    for (const token of unseenTokens) this.#tokens.set(token, true);
    const tokenRows = await readTokenMetadata(this.#rpc, this.chainId, toRead, signal);

    const certain = [...extracted.contracts].filter((a) => this.#kinds.get(a) !== true);
    const candidates = [...extracted.codeCandidates].filter((a) => this.#kinds.get(a) === undefined);
    const checked = await withCode(this.#rpc, candidates, signal);
    const contracts = [...certain, ...checked.contracts];
    return {
      range,
      rows: {
        blocks: extracted.blocks,
        transfers: extracted.transfers,
        tokens: tokenRows,
        contracts,
        issuerFreezes: extracted.issuerFreezes,
        bridgeLegs: extracted.bridgeLegs,
      },
      learned: { contracts, accounts: checked.accounts },
    };
  }

  /** Sizes the next batch to hold about `targetBatchTransactions`, within [1, maxBatchBlocks]. */
  #resize(range: FetchedRange): void {
    const perBlock = range.transactionCount / Math.max(range.blocks.length, 1);
    const ideal = Math.floor(this.#settings.targetBatchTransactions / Math.max(perBlock, 1));
    this.#batchBlocks = Math.max(1, Math.min(this.#settings.maxBatchBlocks, ideal));
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
