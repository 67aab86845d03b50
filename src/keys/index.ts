// The keys feature: projects, API keys, roles and the audit trail.
export { createKey, listKeys, revokeKey } from "./api-keys.ts";
export { writeAudit } from "./audit.ts";
export { KeyAuthenticator } from "./authenticator.ts";
export type { Actor, KeysContext } from "./context.ts";
export { actorName } from "./context.ts";
export {
  type Compliance,
  createProject,
  getProject,
  type Integration,
  projectCompliance,
  projectExists,
  projectIntegration,
  projectJurisdictions,
  projectsWithJurisdictions,
  rotateWebhookSecret,
  updateProject,
} from "./projects.ts";
export { registerKeysRoutes } from "./routes.ts";
export { SEALED_COLUMNS } from "./sealed.ts";
export type { JurisdictionSettings } from "./tables.ts";
