// The reporting thresholds the structuring detector names (src/risk, src/jurisdictions) by the English name the
// finding carries, and their catalog ids: the API's Spanish sentences and the pages say them in the reader's
// language. Browser-safe.
import type { MessageId } from "./catalog.ts";

export const THRESHOLD_NAME_IDS: Readonly<Record<string, MessageId>> = {
  "FATF travel rule": "threshold.fatf_travel_rule",
  "US funds-transfer recordkeeping": "threshold.us_funds_transfer",
  "US currency transaction report": "threshold.us_ctr",
  "MX LFPIORPI Art. 17 XVI aviso": "threshold.mx_aviso",
  "CO UIAF Res. 314/2021 single transaction": "threshold.co_uiaf",
  "GT indicator (no virtual-asset threshold in force)": "threshold.gt_indicator",
};
