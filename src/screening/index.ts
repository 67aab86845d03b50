// Screening of persons: the lists of persons (OFAC SDN, the UN consolidated list, the SAT 69-B list, the UIF's
// Lista de Personas Bloqueadas, OpenSanctions sources in FollowTheMoney form), written by the imports of
// src/ingest/person-lists; the matcher of names (match/); POST /screening/persons and POST /screening; and the
// screening of every monitored client with its `person_match` alerts (docs/api.md, "Screening").
export {
  type ClientRef,
  type ClientScreening,
  clientListings,
  clientMatches,
  NOT_SCREENED,
  type ProfileOf,
  type ProfileRead,
  profileRead,
  rescreenClients,
} from "./clients.ts";
export * from "./entry.ts";
export { type ScreeningShareLimits, screeningShare } from "./fair-share.ts";
export {
  importPersonList,
  type ListImportSummary,
  OlderListError,
  percent,
  ShrunkListError,
} from "./lists/import.ts";
export { currentLists, type ListVersion } from "./lists/read.ts";
export { comparedTokens } from "./match/normalise.ts";
export { DEFAULT_THRESHOLDS } from "./match/thresholds.ts";
export { type ClientScreeningRecord, clientScreeningOf } from "./of-client.ts";
export { type OutcomeClass, VERDICTS } from "./outcomes.ts";
export { PENDING, queueClientScreening, queueProjectScreening } from "./queue.ts";
export { DEFAULT_CLIENT_RESCREEN, startClientRescreening } from "./rescreen-loop.ts";
export { type MatchReviewContext, registerMatchReviewRoutes } from "./review/routes.ts";
export { matchView } from "./review/view.ts";
export { registerScreeningRoutes, type ScreeningContext } from "./routes.ts";
export type { PersonInput, PersonResult, Verdict } from "./schemas.ts";
export { assertListsLoaded, NO_LISTS, screenPerson } from "./screen.ts";
export { type LoadedLists, Screener } from "./screener.ts";
export { screeningSettings, thresholdsOf } from "./settings.ts";
export { type Subject, subjectsOf } from "./subjects.ts";
export { type ScreeningNeeds, type ScreeningWiring, wireScreening } from "./wiring.ts";
