// The columns of this feature sealed with the server secret (src/platform/crypto): the API keys themselves, with
// their lookup HMAC.
import type { SealedColumn } from "../platform/crypto/reseal.ts";

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "api_keys", id: "id", column: "key_enc", lookup: "key_hmac" },
];
