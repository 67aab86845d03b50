// The public lists kept fresh: the workers' scheduled refresh (refresher.ts) and each list's age (freshness.ts).
export { type ListFreshness, listFreshness } from "./freshness.ts";
export { AGED_KINDS, REFRESHED_KINDS, type RefreshedKind, refreshUrl } from "./kinds.ts";
export { ListRefresher, type ListRefresherOptions, type RefreshOutcome } from "./refresher.ts";
