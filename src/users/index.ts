// The users feature: people who sign in to a project (e-mail, name, role, password, optional TOTP, or OpenID
// Connect), their browser sessions, and the endpoints and commands that manage them. Other rooms read people only
// through listUsers and findUser.
export { createUser, newPasswordLink, updateUser } from "./accounts.ts";
export { registerUsersCommand } from "./cli.ts";
export type { UsersContext } from "./context.ts";
export type { OidcSettings } from "./oidc.ts";
export { findUser, listUsers, type UserRecord, type UserSummary } from "./read.ts";
export { registerSessionRoutes, registerUserRoutes } from "./routes.ts";
export { resolveSession } from "./sessions.ts";
export { wireUsers } from "./wiring.ts";
