// Confidence of a label on GraphSense's 0-100 scale: the named levels of its taxonomy
// (GraphSense's confidence.csv; its copy test/fixtures/graphsense-tagpack/confidence.csv keeps this table in step),
// or a number.

export const CONFIDENCE_LEVELS: Readonly<Record<string, number>> = {
  override: 100,
  ownership: 100,
  ledger_immanent: 100,
  manual_transaction: 90,
  service_api: 70,
  forensic_investigation: 70,
  authority_data: 60,
  trusted_provider: 50,
  service_data: 50,
  forensic: 50,
  untrusted_transaction: 40,
  web_crawl: 20,
  heuristic: 10,
  unknown: 5,
};

/** What a label gets when its source states no confidence (the column default of labels.confidence). */
export const DEFAULT_CONFIDENCE = 50;

/** A level name or an integer 0-100; absent or empty: the default. */
export function parseConfidence(value: string | undefined): number | { error: string } {
  const text = value?.trim() ?? "";
  if (text === "") return DEFAULT_CONFIDENCE;
  if (/^\d{1,3}$/.test(text) && Number(text) <= 100) return Number(text);
  const level = CONFIDENCE_LEVELS[text.toLowerCase()];
  return level ?? { error: `unknown confidence "${text}" (a GraphSense level name or 0-100)` };
}
