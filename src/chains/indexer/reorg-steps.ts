// The steps every follower (the EVM and Tron one, follower.ts; Bitcoin Core's, bitcoin-follower.ts) takes about the
// node's head and reorgs: recording the head for the chain's lag, telling a node that is behind from one whose chain
// parted, and unwinding to the common ancestor (store.ts unwindTo), logged and reported as an event.
import type { Kysely } from "kysely";
import { type Checkpoint, storedHashes } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";
import type { FollowerHooks } from "./follow-loop.ts";
import type { IndexerLog } from "./log.ts";
import { findCommonAncestor, type NodeHashes } from "./reorg.ts";
import type { IndexerSettings } from "./settings.ts";
import { recordHead, unwindTo } from "./store.ts";

/** How often a head that stands still is written again (its time says the follower is alive). */
const HEAD_RECORD_MS = 15_000;

export interface ReorgContext {
  db: Kysely<DB>;
  chainId: number;
  settings: IndexerSettings;
  nodeHashes: NodeHashes;
  log: IndexerLog;
  hooks: FollowerHooks;
}

/**
 * Writes the head for the chain's lag when it moved, or at least every HEAD_RECORD_MS while it stands still (so that
 * a stopped follower shows as stopped), not at every poll.
 */
export class HeadRecorder {
  #recorded: { head: bigint | undefined; at: number } = { head: undefined, at: 0 };

  constructor(
    private readonly db: Kysely<DB>,
    private readonly chainId: number,
  ) {}

  async record(head: bigint): Promise<void> {
    const now = Date.now();
    if (head === this.#recorded.head && now - this.#recorded.at < HEAD_RECORD_MS) return;
    // Until the first batch makes the checkpoint row, every poll tries again.
    if (await recordHead(this.db, this.chainId, head)) this.#recorded = { head, at: now };
  }
}

/**
 * The node's head is below the checkpoint: it was rewound or replaced, or it lags (or still syncs). Only a block
 * both have and disagree on proves the chains parted (then unwind from the head); otherwise it is just behind.
 */
export async function partedAt(ctx: ReorgContext, head: bigint, signal: AbortSignal): Promise<boolean> {
  const [theirs] = await ctx.nodeHashes(head, head, signal);
  const ours = (await storedHashes(ctx.db, ctx.chainId, head, head)).get(head);
  return theirs !== undefined && ours !== undefined && theirs !== ours;
}

/**
 * Unwinds everything above the highest block the node and the store share (searching down from `searchFrom`, no
 * deeper than the reorg depth), and returns that block: the new checkpoint (undefined: from the start block again).
 */
export async function unwindReorg(
  ctx: ReorgContext,
  checkpoint: Checkpoint,
  searchFrom: bigint,
  signal: AbortSignal,
): Promise<Checkpoint | undefined> {
  const { startBlock, maxReorgDepth } = ctx.settings;
  const floor = maxReorgDepth === null ? startBlock : checkpoint.number - maxReorgDepth;
  const lowest = max(floor, startBlock);
  const ancestor = await findCommonAncestor(ctx.nodeHashes, ctx.db, ctx.chainId, searchFrom, lowest, signal);
  if (!ancestor && lowest > startBlock) {
    throw new Error(
      `the node's chain parts from the index more than ${maxReorgDepth} blocks below block ${checkpoint.number}: ` +
        "refusing to unwind that far (is rpc_url the right network, and synced?)",
    );
  }
  const removed = await unwindTo(
    ctx.db,
    ctx.chainId,
    ancestor,
    startBlock,
    checkpoint,
    ctx.hooks.watcher,
    ctx.hooks.issuerFreezes,
  );
  ctx.log.warn(
    {
      chainId: ctx.chainId,
      from: checkpoint.number.toString(),
      ancestor: ancestor ? ancestor.number.toString() : null,
      removedTransfers: removed.transfers,
      removedBlocks: removed.blocks,
    },
    "indexer: reorg: unwound to the common ancestor",
  );
  ctx.hooks.onEvent?.({
    kind: "reorg",
    chainId: ctx.chainId,
    from: checkpoint.number,
    ancestor: ancestor ? ancestor.number : null,
    ...removed,
  });
  return ancestor;
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
