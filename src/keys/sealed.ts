// The columns of this feature sealed with the server secret (src/platform/crypto): the API keys themselves (with
// their lookup HMAC) and the webhook signing secrets, current and rotated-out.
import type { SealedColumn } from "../platform/crypto/reseal.ts";

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "api_keys", id: "id", column: "key_enc", lookup: "key_hmac" },
  { table: "projects", id: "id", column: "webhook_secret_enc" },
  { table: "projects", id: "id", column: "previous_webhook_secret_enc" },
];
