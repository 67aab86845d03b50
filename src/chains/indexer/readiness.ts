// What /readyz says of the followed chains when VIGIA_READY_MAX_LAG_BLOCKS asks it to (docs/operations.md,
// "Health"): a chain whose follower stopped because its node is not the chain the store holds, a chain more blocks
// behind its node's head than the limit, and one whose indexer has not read its node's head for longer than
// VIGIA_COVERAGE_MAX_SILENCE_SECONDS (a dead node or indexer leaves the last lag standing). A followed chain without a
// checkpoint yet (its indexer is starting) is not late.
import type { ChainLag } from "../../ledger/index.ts";

export interface ReadyChainsInput {
  /** The chains this deployment follows (enabled, with an rpc_url). */
  followed: number[];
  lags: ChainLag[];
  /** Followers of this process stopped for identity, with the reason. */
  stopped: { chainId: number; reason: string }[];
  maxLagBlocks: number;
  maxSilenceSeconds: number;
}

/** Each problem in words ("chain 1 is 150 blocks behind its node (limit 100)"), by chain id; empty when ready. */
export function chainReadinessProblems(input: ReadyChainsInput): string[] {
  const followed = new Set(input.followed);
  const problems: { chainId: number; text: string }[] = [];
  const stopped = new Set<number>();
  for (const s of input.stopped) {
    stopped.add(s.chainId);
    problems.push({ chainId: s.chainId, text: `chain ${s.chainId} stopped: ${s.reason}` });
  }
  for (const lag of input.lags) {
    if (!followed.has(lag.chainId) || stopped.has(lag.chainId)) continue;
    if (lag.lagBlocks !== null && lag.lagBlocks > input.maxLagBlocks) {
      problems.push({
        chainId: lag.chainId,
        text: `chain ${lag.chainId} is ${lag.lagBlocks} blocks behind its node (limit ${input.maxLagBlocks})`,
      });
    } else if (lag.silentSeconds > input.maxSilenceSeconds) {
      problems.push({
        chainId: lag.chainId,
        text: `chain ${lag.chainId} has not read its node's head for ${lag.silentSeconds} s (limit ${input.maxSilenceSeconds})`,
      });
    }
  }
  return problems.sort((a, b) => a.chainId - b.chainId).map((p) => p.text);
}
