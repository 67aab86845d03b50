// The SAT catalog codes the AVI report uses that could not be checked against the official "AVI" template (its
// "Combos" sheet, from the SPPLD portal): one table, so that a maintainer who obtains the official catalogs
// corrects them here and nowhere else. docs/reports/mx.md lists each with where it came from.

/**
 * activo_virtual_operado. From a third-party copy of the AVI catalog, in the order of the SAT's published list of
 * "principales criptomonedas" (unverified). Assets not in it use OTHER_VIRTUAL_ASSET with their ticker in
 * descripcion_activo_virtual; the list has no stablecoins.
 */
export const VIRTUAL_ASSET_CODES: Readonly<Record<string, number>> = {
  BTC: 1001,
  ETH: 1002,
  XRP: 1003,
  BCH: 1004,
  LTC: 1005,
  EOS: 1006,
  BNB: 1007,
  BSV: 1008,
  XLM: 1009,
  XMR: 1010,
  ADA: 1011,
  TRX: 1012,
  DASH: 1014,
  XTZ: 1015,
  ETC: 1016,
  ZEC: 1021,
  DOGE: 1022,
  ALGO: 1042,
};
export const OTHER_VIRTUAL_ASSET = 999999;

/** tipo_alerta: 100 "sin alerta" is common to every activity (verified); the 41xx codes are unverified. */
export const ALERT_CODES = {
  none: 100,
  /** 4122: the operation's identifiers match lists of illicit activity (e.g. OFAC) */
  listedCounterparty: 4122,
  /** 4114: indicia of illicit origin of the resources */
  illicitIndicia: 4114,
  /** 4107: the client's name is on national or international black lists (UN, OFAC): a client on the UIF's LPB */
  listedClient: 4107,
} as const;

/** moneda (moneda_cuenta): the SAT's numeric codes, not ISO 4217 (verified: 1 peso, 2 dollar). */
export const CURRENCY_CODES = { MXN: 1, USD: 2 } as const;

/**
 * pais: ISO 3166-1 alpha-2 with the SAT's deviations found in its DIN template (verified there, assumed for AVI):
 * Greece is EL and the United Kingdom UK.
 */
export const SAT_COUNTRY_EXCEPTIONS: Readonly<Record<string, string>> = { GR: "EL", GB: "UK" };

/** The SAT country code of an ISO 3166-1 alpha-2 code. */
export const satCountry = (iso: string): string => {
  const upper = iso.toUpperCase();
  return SAT_COUNTRY_EXCEPTIONS[upper] ?? upper;
};

/**
 * instrumento_monetario of a fiat deposit or withdrawal (fondos_depositados, fondos_retirados): the SAT's catalog of
 * monetary instruments as its other avisos' templates number it (unverified for AVI). A rail maps to the instrument
 * it moves money by: SPEI an interbank transfer, Pix and ACH an international one, a card a debit card, cash cash.
 */
export const MONETARY_INSTRUMENTS = {
  cash: 1,
  card: 3,
  spei: 8,
  pix: 10,
  ach: 10,
  other: 8,
} as const;

/**
 * clave_institucion_financiera of a Mexican account: the bank's key in Banxico's SPEI, from the CLABE's first three
 * digits (its bank code): 40 and the code for a commercial bank, 37 and the code for a development bank, 90 and the
 * code for another participant (codes from 600: STP, brokers, popular savings). Unverified against the AVI catalog.
 */
const DEVELOPMENT_BANKS = new Set(["006", "009", "019", "135", "166", "168"]);
export function institutionKey(clabe: string): number {
  const code = clabe.slice(0, 3);
  const prefix = DEVELOPMENT_BANKS.has(code) ? 37 : Number(code) >= 600 ? 90 : 40;
  return prefix * 1000 + Number(code);
}
