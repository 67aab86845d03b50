// Jurisdictions: one folder per country (mx/, co/, sv/, gt/), each implementing the Jurisdiction port (port.ts):
// its dated law rules with their sources, its accumulation, its monthly files and urgent avisos, its filing
// calendar, its settings and what it needs of a client's profile; the international rules (international/) as a
// rule book of their own; which jurisdiction governs a client (governing.ts); the client profile (profile.ts); law
// figures published after a release and imported into the store (Mexico's UMA of a new year, mx/uma-store.ts).
// docs/regulation.md is the compliance officer's reading of the same data.
export { basisVersionOn } from "./aviso-basis.ts";
export { deadlineAfter } from "./calendar.ts";
export { COLOMBIA, type CoRecord, type CoSettings, coReportable } from "./co/index.ts";
export { TEXT_MEDIA_TYPE } from "./delimited.ts";
export {
  type ClientJurisdiction,
  ClientJurisdictionSchema,
  clientCountry,
  filingJurisdictions,
  governingJurisdiction,
} from "./governing.ts";
export {
  importedUma,
  importUma,
  MEXICO,
  MX_TIME_ZONE,
  type MxReportingEntity,
  type MxSettings,
  mxSingleThresholdMxn,
  type UmaImport,
  umaOn,
  useImportedUma,
} from "./mx/index.ts";
export type {
  AvisoBasis,
  AvisoBasisVersion,
  Blocked,
  Client,
  ClientFile,
  FiledAviso,
  FileEntry,
  FileKind,
  FilingDefinition,
  Jurisdiction,
  KnownAviso,
  MonthBuild,
  MonthInput,
  OperationId,
  Refused,
  Rendered,
  UrgentAvisos,
} from "./port.ts";
export { beneficialOwners, type Profile, ProfileSchema } from "./profile.ts";
export {
  INTERNATIONAL,
  JURISDICTION_CODES,
  JURISDICTIONS,
  jurisdiction,
  jurisdictionsOf,
  ruleBooksOf,
} from "./registry.ts";
export { ruleTitle } from "./rule-title.ts";
export { aviUserId, textUserId, userStem } from "./user-ids.ts";
export { wireJurisdictions } from "./wiring.ts";
