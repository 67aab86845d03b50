// The columns of this feature sealed with the server secret (src/platform/crypto): the user profile a report was
// built from, kept with the report for the regulators' questions.
import type { SealedColumn } from "../platform/crypto/reseal.ts";

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "reports", id: "id", column: "profile_enc" },
];
