// Every stored column that holds a value sealed with the server secret, gathered from the features that own them:
// what `vigia secret reseal` re-seals after a rotation and what an import under another secret re-seals.
import { SEALED_COLUMNS as INTEGRATOR_SEALED } from "../integrator/index.ts";
import { SEALED_COLUMNS as KEYS_SEALED } from "../keys/index.ts";
import type { SealedColumn } from "../platform/crypto/reseal.ts";
import { SEALED_COLUMNS as REPORTS_SEALED } from "../reports/index.ts";

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  ...KEYS_SEALED,
  ...INTEGRATOR_SEALED,
  ...REPORTS_SEALED,
];
