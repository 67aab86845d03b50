// What every chain follower shares (the EVM and Tron one, follower.ts; Bitcoin Core's, bitcoin-follower.ts): its
// events, hooks and status, and the loop that holds the chain's lock, takes one step at a time, and never gives up:
// any failure (node gone, database restarting, a range that changed under our feet) is logged, waited out with
// exponential backoff, and the work resumes from the stored checkpoint. A node that is not the chain the store holds
// stops the loop for good.

import { type BackoffPolicy, backoffDelay, sleep } from "./backoff.ts";
import type { IssuerFreezeSink } from "./issuer-freezes.ts";
import type { ChainLock } from "./lock.ts";
import type { IndexerLog } from "./log.ts";
import type { TransferWatcher } from "./store.ts";

export type FollowerEvent =
  | { kind: "batch"; chainId: number; from: bigint; to: bigint; transfers: number; inserted: number }
  | {
      kind: "reorg";
      chainId: number;
      from: bigint;
      ancestor: bigint | null;
      transfers: number;
      blocks: number;
    }
  | { kind: "failure"; chainId: number; error: Error; failures: number; retryInMs: number };

export interface FollowerHooks {
  /** Inside a batch's transaction, after its rows are written, before it commits (tests inject crashes here). */
  beforeCommit?(range: { from: bigint; to: bigint }): Promise<void> | void;
  onEvent?(event: FollowerEvent): void;
  /** Sees every confirmed transfer, and every unwind, in the indexer's transaction (monitoring). */
  watcher?: TransferWatcher;
  /**
   * Takes the issuer freezes (USDT AddedBlackList / RemovedBlackList) of every confirmed batch, and every unwind, in
   * the indexer's transaction: the service passes src/ingest's, which writes them as labels.
   */
  issuerFreezes?: IssuerFreezeSink;
}

export interface FollowerStatus {
  chainId: number;
  state: "starting" | "standby" | "following" | "failing" | "stopped";
  checkpoint: bigint | null;
  head: bigint | null;
  failures: number;
  lastError: string | null;
  /** Why the follower stopped for good: the node is not the chain the store holds (null otherwise). */
  stoppedReason: string | null;
}

/**
 * The node at rpc_url is not the chain the store holds: another chain id, or a history that shares no stored block
 * within the reorg depth (a fresh or foreign node under the same id). Following it would unwind the index and
 * record a stranger's transfers, so the follower stops instead (it is checked again at the next start).
 */
export class ChainIdentityError extends Error {}

/** One follower's steps, as the loop drives them. */
export interface FollowWork {
  /** One move: a batch stored, a reorg unwound (true), or nothing to do yet (false). */
  step(signal: AbortSignal): Promise<boolean>;
  /** Forgets what may be stale after a failure or a change of lock holder: it is read again from the store. */
  forget(): void;
}

export interface FollowLoop {
  chainId: number;
  chainName: string;
  lock: ChainLock;
  log: IndexerLog;
  /** updated in place as the loop goes */
  status: FollowerStatus;
  backoff: BackoffPolicy;
  pollIntervalMs: number;
  lockRetryMs: number;
  onEvent?: ((event: FollowerEvent) => void) | undefined;
}

/** A follower's status before its first step. */
export const startingStatus = (chainId: number): FollowerStatus => ({
  chainId,
  state: "starting",
  checkpoint: null,
  head: null,
  failures: 0,
  lastError: null,
  stoppedReason: null,
});

/** The loop of a follower of these settings. */
export function loopOf(
  follower: {
    settings: { chainId: number; chainName: string; pollIntervalMs: number; lockRetryMs: number };
    lock: ChainLock;
    log: IndexerLog;
    backoff: BackoffPolicy;
    hooks: FollowerHooks;
  },
  status: FollowerStatus,
): FollowLoop {
  const { settings } = follower;
  return {
    chainId: settings.chainId,
    chainName: settings.chainName,
    lock: follower.lock,
    log: follower.log,
    status,
    backoff: follower.backoff,
    pollIntervalMs: settings.pollIntervalMs,
    lockRetryMs: settings.lockRetryMs,
    onEvent: follower.hooks.onEvent,
  };
}

/** While failing, a warning at the first failure and then at most once per this interval. */
const WARN_EVERY_MS = 60_000;

/** Runs until `signal` aborts (or the node proves to be another chain), then releases the lock. */
export async function followChain(loop: FollowLoop, work: FollowWork, signal: AbortSignal): Promise<void> {
  const chain = { chainId: loop.chainId, chain: loop.chainName };
  const { status, log } = loop;
  let holding = false;
  let failingSince: number | undefined;
  let warnedAt = 0;
  while (!signal.aborted) {
    let wait = 0;
    try {
      const lock = await loop.lock.acquire();
      if (lock !== "busy") {
        if (lock === "taken") {
          // Another worker may have written since we last held the chain: start again from the store.
          if (holding) log.warn(chain, "indexer: the chain's lock was lost and taken again");
          else log.info(chain, "indexer: following the chain");
          holding = true;
          work.forget();
        }
        status.state = "following";
        const progressed = await work.step(signal);
        if (failingSince !== undefined) {
          log.info(
            { ...chain, failures: status.failures, downForMs: Date.now() - failingSince },
            "indexer: recovered",
          );
          failingSince = undefined;
        }
        status.failures = 0;
        status.lastError = null;
        wait = progressed ? 0 : loop.pollIntervalMs;
      } else {
        if (holding) log.warn(chain, "indexer: lost the chain's lock; standing by");
        holding = false;
        work.forget();
        status.state = "standby";
        wait = loop.lockRetryMs;
      }
    } catch (caught) {
      if (signal.aborted) break;
      if (caught instanceof ChainIdentityError) {
        // Nothing was written or unwound: the check runs before any block of this node is read.
        work.forget();
        status.state = "stopped";
        status.stoppedReason = caught.message;
        status.lastError = caught.message;
        log.error(
          { ...chain, reason: caught.message },
          "indexer: stopped following the chain: the node is not the chain the store holds",
        );
        break;
      }
      const error = caught instanceof Error ? caught : new Error(String(caught));
      const failures = ++status.failures;
      status.state = "failing";
      status.lastError = error.message;
      work.forget();
      wait = backoffDelay(failures, loop.backoff);
      failingSince ??= Date.now();
      if (failures === 1 || Date.now() - warnedAt >= WARN_EVERY_MS) {
        warnedAt = Date.now();
        log.warn({ ...chain, error: error.message, failures, retryInMs: wait }, "indexer: retrying");
      }
      loop.onEvent?.({ kind: "failure", chainId: loop.chainId, error, failures, retryInMs: wait });
    }
    if (wait > 0) await sleep(wait, signal);
  }
  await loop.lock.release().catch(() => {});
}
