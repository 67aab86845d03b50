// The keys feature: a project's API keys and their roles, and the authenticator that turns a request's key into a
// principal.
export { activeKeyLabels, createKey, keyLabelsById, listKeys, revokeKey } from "./api-keys.ts";
export { KeyAuthenticator } from "./authenticator.ts";
export type { KeysContext } from "./context.ts";
export { createProject } from "./new-project.ts";
export { registerKeysRoutes } from "./routes.ts";
export { SEALED_COLUMNS } from "./sealed.ts";
export { type KeysWiring, wireKeys } from "./wiring.ts";
