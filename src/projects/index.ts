// Projects: a tenant's settings (its name, jurisdictions and their settings, and the parts other rooms own), the
// audit trail of every change (a hash chain per project, `vigia audit verify`), and the reads other rooms make of a project's jurisdictions.
export { type Actor, actorName } from "./actor.ts";
export { listAudit, writeAudit } from "./audit.ts";
export { registerAuditCommand } from "./audit-cli.ts";
export { type AuditVerification, verifyAudit } from "./audit-verify.ts";
export type { ProjectsContext } from "./context.ts";
export {
  type Compliance,
  getProject,
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
