// Projects: a tenant's settings (its name, jurisdictions and their settings, and the parts other rooms own), the
// audit trail of every change (a hash chain per project with a signed head, `vigia audit verify`), and the reads other rooms make of a project's jurisdictions.
export { type Actor, actorName, actorOf } from "./actor.ts";
export { listAudit, lockAuditChain, type RecordedEntry, recordedEntries, writeAudit } from "./audit.ts";
export { canonicalJson } from "./audit-chain.ts";
export { registerAuditCommand } from "./audit-cli.ts";
export { type AuditHead, listHeads, resignHeads, useAuditKeys } from "./audit-head.ts";
export { sealChainsAtUpgrade, upgradedToAuditHeads } from "./audit-upgrade.ts";
export { type AuditVerification, parseHeads, verifyAudit } from "./audit-verify.ts";
export type { ProjectsContext } from "./context.ts";
export {
  type Compliance,
  demoProjectId,
  getProject,
  hasProjects,
  insertProject,
  projectCompliance,
  projectCreatedAt,
  projectExists,
  projectJurisdictions,
  projectsWithJurisdictions,
  updateProject,
} from "./projects.ts";
export { registerProjectRoutes } from "./routes.ts";
export type { ProjectPatch, ProjectView } from "./schemas.ts";
export type { SettingsPart } from "./settings-part.ts";
export type { JurisdictionSettings } from "./tables.ts";
export { type ActorNamer, type ProjectsWiring, wireProjects } from "./wiring.ts";
