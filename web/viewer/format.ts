// How a transfer reads in the details panel: its amount in the token's own units (the raw integer and the
// decimals the layer gives), its date (UTC, or the signed-in person's zone), and the address of its transaction on
// the chain's explorer. No DOM here, so it is unit-tested in Node (test/viewer/exposure.test.ts).
import { currentLang, currentTimeZone, formatDateTime, t } from "./i18n.ts";

/** "1.5 ETH" from 1500000000000000000 and 18 decimals; at most 6 decimal places, trailing zeros dropped. */
export function formatAmount(value: bigint, decimals: number | undefined, symbol: string): string {
  if (decimals === undefined || !Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    return t("viewer.raw_units", { amount: `${value.toString()} ${symbol}` });
  }
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  // Rounded down to 6 places: an amount shown must never exceed what moved.
  const fraction = digits
    .slice(digits.length - decimals)
    .slice(0, 6)
    .replace(/0+$/, "");
  // Grouped and with the decimal mark of the reader's locale (es-MX and en-US share them: 12,345.5).
  const separators = currentLang() === "en" ? [",", "."] : groupAndMark();
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, separators[0] as string);
  const shown = fraction ? `${grouped}${separators[1]}${fraction}` : grouped;
  const tiny = shown === "0" && value !== 0n ? `< 0${separators[1]}000001` : shown;
  return `${negative ? "-" : ""}${tiny} ${symbol}`;
}

/** The locale's grouping separator and decimal mark (exact token amounts are strings, not numbers). */
function groupAndMark(): [string, string] {
  const parts = new Intl.NumberFormat(currentLang() === "es" ? "es-MX" : "en-US").formatToParts(12345.5);
  return [
    parts.find((p) => p.type === "group")?.value ?? ",",
    parts.find((p) => p.type === "decimal")?.value ?? ".",
  ];
}

/**
 * "2024-01-15 13:45 UTC": the chain's clock is UTC, the same for every reader; a signed-in person reads it in
 * her own zone, which the zone's name beside it says.
 */
export function formatDate(iso: string | undefined): string {
  if (!iso) return t("viewer.date_unknown");
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return t("viewer.date_unknown");
  return `${formatDateTime(date)} ${currentTimeZone()}`;
}

/**
 * The explorer's base URL when the chain registry gives one that is http(s): anything else (a `javascript:`
 * URL in a misconfigured registry) is never put in a link on the page that holds the API key.
 */
export function explorerBase(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
    return parsed.href.replace(/\/+$/, "");
  } catch {
    return undefined;
  }
}

const HEX_HASH = /^0x[0-9a-fA-F]{64}$/;
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The transaction's page on the explorer (the /tx/ path Etherscan and Blockscout share), or undefined. */
export function txUrl(explorer: string | undefined, hash: string | undefined): string | undefined {
  return explorer && hash && HEX_HASH.test(hash) ? `${explorer}/tx/${hash}` : undefined;
}

/** The address's page on the explorer, or undefined. */
export function addressUrl(explorer: string | undefined, address: string): string | undefined {
  return explorer && HEX_ADDRESS.test(address) ? `${explorer}/address/${address}` : undefined;
}
