// Calls to the integrator: the notification outbox (store.ts) and its delivery, at least once, signed, retried on
// schedule (deliver.ts); how calls are signed (signing.ts); the notifications log, redelivery and the endpoint
// check an admin runs before going live (routes.ts, integration-test.ts).
export { MAX_ATTEMPTS, NotificationDeliverer, RETRY_SCHEDULE_MS } from "./deliver.ts";
export { registerWebhooksCommand, startReceiver } from "./receiver.ts";
export { type NotificationsContext, registerNotificationRoutes } from "./routes.ts";
export {
  type Message,
  type SigningScheme,
  serializeBody,
  signatureHeaders,
  verifySignature,
} from "./signing.ts";
export { enqueue, type NewMessage } from "./store.ts";
