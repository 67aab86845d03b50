// Following the chains in a running service: in processes with workers a follower per chain this deployment
// follows (the monitoring told of every transfer, the issuers' freezes written as labels), and in every process
// the followed chains' lags for the metrics and /readyz: facts, unless VIGIA_READY_MAX_LAG_BLOCKS makes a chain
// late or stopped a reason to be unready.

import { type ChainLag, chainLags } from "../../ledger/index.ts";
import type { Base } from "../../platform/assembly.ts";
import type { Database } from "../../platform/db/open.ts";
import { NotReadyError } from "../../platform/http/app.ts";
import type { DB } from "../../schema.ts";
import { type ChainRegistry, isDevnetChain } from "../registry.ts";
import type { FollowerHooks } from "./follower.ts";
import { chainReadinessProblems } from "./readiness.ts";
import { indexedChains } from "./settings.ts";
import { type Indexers, startIndexers } from "./start.ts";
import type { TransferWatcher } from "./store.ts";

export interface ChainFollowingNeeds {
  database: Database<DB>;
  registry: ChainRegistry;
  /** Whether the devnet's chain is followed here (src/devnet/when.ts). */
  followDevnet: boolean;
  /** The demo devnet this process runs: its registry has the node's actual URL. */
  devnet: { registry: ChainRegistry } | undefined;
  /** The monitoring's watcher of the transfers written and unwound. */
  watcherFor: (everyChainOn: (chainId: number) => boolean) => TransferWatcher;
  /** Where the issuers' freezes go (the labels). */
  issuerFreezes: NonNullable<FollowerHooks["issuerFreezes"]>;
  metrics: {
    followIndexers(indexers: Indexers): void;
    followChainLags(read: () => Promise<ChainLag[]>): void;
  };
}

export function wireChainFollowing(base: Base<DB>, needs: ChainFollowingNeeds): Indexers | undefined {
  const { config } = base;
  const { followDevnet } = needs;
  // The chains this deployment follows (every worker process follows them; an API process reads their lag). Only
  // those: a store moved from another setup (the devnet's checkpoints, brought to PostgreSQL by export and
  // import-db) keeps rows of chains nothing here follows, whose last lag is no news.
  const followed = indexedChains(needs.registry.enabled()).filter(
    (c) => followDevnet || !isDevnetChain(c.id),
  );
  const followedIds = new Set(followed.map((c) => c.id));
  const followedLags = async () =>
    (await chainLags(base.db, new Date())).filter((lag) => followedIds.has(lag.chainId));
  needs.metrics.followChainLags(followedLags);

  const chains = needs.devnet?.registry ?? needs.registry;
  const indexers = base.assembly.loop(() =>
    startIndexers({
      database: needs.database,
      chains: chains.enabled().filter((c) => followDevnet || !isDevnetChain(c.id)),
      logLevel: config.logLevel,
      hooks: {
        watcher: needs.watcherFor((id) => chains.codec(id).kind === "evm"),
        issuerFreezes: needs.issuerFreezes,
      },
    }),
  );
  if (indexers) needs.metrics.followIndexers(indexers);
  // The chains whose follower stopped because the node is not the chain the store holds, with the reason.
  const stopped = () =>
    (indexers?.status() ?? []).flatMap((s) =>
      s.stoppedReason ? [{ chainId: s.chainId, reason: s.stoppedReason }] : [],
    );

  // Each followed chain's lag: unless VIGIA_READY_MAX_LAG_BLOCKS says otherwise, a lagging chain does not make the
  // API unready, its verdicts say so.
  base.assembly.facts.chains = followedLags;
  base.assembly.facts.stoppedChains = async () => {
    const now = stopped();
    return now.length > 0 ? now : undefined;
  };
  const maxLagBlocks = config.readyMaxLagBlocks;
  if (maxLagBlocks !== undefined)
    base.assembly.readiness.chains = async () => {
      const problems = chainReadinessProblems({
        followed: followed.map((c) => c.id),
        lags: await followedLags(),
        stopped: stopped(),
        maxLagBlocks,
        maxSilenceSeconds: config.coverageMaxSilenceSeconds,
      });
      if (problems.length > 0) throw new NotReadyError(problems.join(", "));
    };
  return indexers;
}
