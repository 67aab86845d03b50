// Alerts: what the compliance officer acts on. Raised by the transfer checker (a monitored transfer that infringes
// an `illegal` rule, or a `warn` rule the project lists) and by stored verdicts (an analysis of a monitored address
// at the project's alert level), one per subject and cause while open; triaged through the API with every change
// kept in the alert's history; counted on /metrics (docs/api.md, "Alerts").

export { alertOnVerdict, analysisEvidenceOf, type FindClient } from "./analysis-alerts.ts";
export { type AttemptMatch, raiseAttemptAlert } from "./attempt-alerts.ts";
export { type AlertCount, countOpenAlerts } from "./counts.ts";
export type { AlertDeadline } from "./deadline.ts";
export { dropDeadline } from "./drop-deadline.ts";
export {
  type EvidenceFile,
  evidenceFile,
  evidenceResponse,
  PACK_FORMATS,
  type PackFormat,
  sendEvidence,
} from "./evidence-file.ts";
export { labelsSection, table, verdictSection } from "./evidence-markdown.ts";
export { type HistoryInWords, historiesInWords } from "./histories.ts";
export { startHistoryAudit } from "./history-audit.ts";
export { levelWords } from "./history-text.ts";
export { type InboxPage, listInbox } from "./inbox.ts";
export { labelsUsed } from "./labels-used.ts";
export { langOf } from "./lang.ts";
export {
  decidePersonMatch,
  type EarlierReview,
  MATCH_DECISIONS,
  type MatchDecision,
  type PersonMatchAlert,
  personMatchAlert,
  type RecordedReview,
} from "./match-review.ts";
export { actorWords, type Names, projectNames } from "./names.ts";
export {
  OPERATION_CAUSES,
  type OperationRuleHit,
  raiseOperationAlert,
} from "./operation-alerts.ts";
export { type PersonMatch, raisePersonAlert } from "./person-alerts.ts";
export { type CheckedTransferAlerts, type LawHit, raiseClientLawAlerts, raiseLawAlerts } from "./raise.ts";
export {
  alertsAwaitingTransfers,
  closeReported,
  missingAlerts,
  noteFilingsMarked,
} from "./reported.ts";
export { type RescreenRise, raiseRescreenAlert } from "./rescreen-alerts.ts";
export { type AlertsContext, registerAlertRoutes } from "./routes.ts";
export {
  AlertParams,
  AlertSchema,
  type AlertView,
  type AttemptEvidence,
  type OperationEvidenceItem,
  type PersonCandidateEvidence,
} from "./schemas.ts";
export { type AlertLevel, alertLevelOf, alertSettings } from "./settings.ts";
export type { AlertTables } from "./tables.ts";
export { type AlertsNeeds, wireAlerts } from "./wiring.ts";
