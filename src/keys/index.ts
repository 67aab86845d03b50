// The keys feature: projects, API keys, roles and the audit trail.
export { createKey, listKeys, revokeKey } from "./api-keys.ts";
export { writeAudit } from "./audit.ts";
export { KeyAuthenticator } from "./authenticator.ts";
export type { Actor, KeysContext } from "./context.ts";
export { actorName } from "./context.ts";
export {
  createProject,
  getProject,
  type Integration,
  projectExists,
  projectIntegration,
  projectJurisdictions,
  rotateWebhookSecret,
  updateProject,
} from "./projects.ts";
export { registerKeysRoutes } from "./routes.ts";
export { SEALED_COLUMNS } from "./sealed.ts";
export type { MxReportingEntity } from "./tables.ts";
