// Calls to the integrator: how they are signed (signing.ts) and the endpoint check an admin runs before going live
// (integration-test.ts, routes.ts).
export { type NotificationsContext, registerNotificationRoutes } from "./routes.ts";
export { type Message, type SigningScheme, serializeBody, signatureHeaders } from "./signing.ts";
