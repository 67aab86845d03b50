// The public lists in a running service: each list's age (for the metrics, /readyz and the screening routes) and,
// in processes with workers, their refresh on schedule (VIGIA_LIST_REFRESH_HOURS), the shrink guard included.
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { issuerFreezeLabels } from "./labels/index.ts";
import {
  type ListFreshness,
  ListRefresher,
  type ListRefresherOptions,
  listFreshness,
  refreshUrl,
} from "./refresh/index.ts";

export interface ListsNeeds {
  metrics: {
    followLists(read: () => Promise<ListFreshness[]>): void;
    listRefresh: NonNullable<ListRefresherOptions["onOutcome"]>;
    loopFailure: (loop: string) => void;
  };
}

export interface ListsWiring {
  /** Each list's age and last refresh, now. */
  freshness: () => Promise<ListFreshness[]>;
  /** Tether's freezes on Tron as `blacklisted_by_issuer` labels, for the chain followers. */
  issuerFreezes: typeof issuerFreezeLabels;
}

export function wireLists(base: Base<DB>, needs: ListsNeeds): ListsWiring {
  const { config } = base;
  const freshness = () =>
    listFreshness(base.db, new Date(base.now()), {
      maxAgeHours: config.listMaxAgeHours,
      refreshHours: config.listRefreshHours,
      refreshable: (kind) => refreshUrl(kind, config.listUrls) !== undefined,
    });
  needs.metrics.followLists(freshness);
  // A stale list is said on /readyz and alerted, it does not make the API unready (screening against the list
  // held goes on).
  base.assembly.facts.lists = freshness;
  base.assembly.loop(() => {
    const refresher = new ListRefresher({
      db: base.db,
      outbound: base.outbound,
      refreshHours: config.listRefreshHours,
      urls: config.listUrls,
      maxShrink: config.listMaxShrink,
      log: base.log("lists"),
      onOutcome: needs.metrics.listRefresh,
      onError: () => needs.metrics.loopFailure("list_refresh"),
      now: () => new Date(base.now()),
    });
    refresher.start();
    return refresher;
  });
  return { freshness, issuerFreezes: issuerFreezeLabels };
}
