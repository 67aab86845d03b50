// Everything the service sends to or reads from a project's integrator: its settings and webhook secrets
// (settings.ts, shown in the project's settings), how calls are signed (signing.ts), the profile read
// (profile-reader.ts), the notification outbox the monitoring room hands its messages to (outbox.ts) and its
// delivery, at least once, signed, retried on schedule, fair to every tenant (deliver.ts), the integrator's health
// (health.ts), the endpoint check an admin runs before going live and the notifications log (routes.ts), the
// local receiver of `vigia webhooks listen` (receiver.ts), and the notification as the OpenAPI document describes it
// (webhook-doc.ts).
export {
  FAILURE_REASONS,
  type FailureReason,
  type IntegratorCall,
  type IntegratorContext,
} from "./context.ts";
export {
  type AttemptOutcome,
  DEFAULT_DELIVERER,
  type DelivererOptions,
  MAX_ATTEMPTS,
  NotificationDeliverer,
  RETRY_SCHEDULE_MS,
} from "./deliver.ts";
export { integratorsFailing } from "./health.ts";
export { inflictedLawsOf, residenceOf } from "./inflicted-laws.ts";
export { enqueue, type NewMessage, openMessages } from "./outbox.ts";
export { outboxFull } from "./outbox-cap.ts";
export { ProfileReader, type ProfileReaderOptions, type ProfileResult } from "./profile-reader.ts";
export { registerWebhooksCommand, startReceiver } from "./receiver.ts";
export { type IntegratorLimits, refuseWhenOutboxFull, registerIntegratorRoutes } from "./routes.ts";
export { SEALED_COLUMNS } from "./sealed.ts";
export {
  type Integration,
  integrationSettings,
  projectIntegration,
  rotateWebhookSecret,
  setSigningScheme,
  WEBHOOK_SECRET_GRACE_MS,
} from "./settings.ts";
export {
  type Message,
  type SigningScheme,
  serializeBody,
  signatureHeaders,
  verifySignature,
} from "./signing.ts";
export {
  checkForeignUserId,
  FOREIGN_USER_ID_MAX,
  ForeignUserIdSchema,
  foreignUserIdProblem,
} from "./user-id.ts";
export {
  NOTIFICATION_WEBHOOK,
  type NotificationBody,
  NotificationBodySchema,
  notificationWebhooks,
} from "./webhook-doc.ts";
export { type IntegratorNeeds, type IntegratorWiring, wireIntegrator } from "./wiring.ts";
