// The columns of this feature sealed with the server secret (src/platform/crypto): the webhook signing secrets,
// current and rotated-out.
import type { SealedColumn } from "../platform/crypto/reseal.ts";

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "integrations", id: "project_id", column: "webhook_secret_enc" },
  { table: "integrations", id: "project_id", column: "previous_webhook_secret_enc" },
];
