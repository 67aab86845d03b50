// Figures in messages and reasons, formatted the same way everywhere and without locale data (so that the same
// input gives the same text on every machine): "USD 9,120", "85%", "4.2 days", "3.2 ETH".

/** 1234567.8 -> "1,234,568"; below 100, two decimals are kept ("12.50"). */
export function num(n: number): string {
  const digits = Math.abs(n) < 100 && !Number.isInteger(n) ? 2 : 0;
  const fixed = Math.abs(n).toFixed(digits);
  const [whole = "0", frac] = fixed.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${n < 0 ? "-" : ""}${grouped}${frac ? `.${frac}` : ""}`;
}

export function usd(n: number): string {
  return `USD ${num(n)}`;
}

/** "USD 9,120–9,850", or "USD 9,120" when both ends round the same. */
export function usdRange(lo: number, hi: number): string {
  const a = num(lo);
  const b = num(hi);
  return a === b ? `USD ${a}` : `USD ${a}–${b}`;
}

/** 0.853 -> "85%" */
export function pct(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/** "85–96%", or "90%" when both ends round the same. */
export function pctRange(lo: number, hi: number): string {
  const a = Math.round(lo * 100);
  const b = Math.round(hi * 100);
  return a === b ? `${a}%` : `${a}–${b}%`;
}

/** A duration in seconds: "45 minutes", "5.2 hours", "4.2 days". */
export function duration(seconds: number): string {
  if (seconds < 3_600) return `${Math.max(1, Math.round(seconds / 60))} minutes`;
  if (seconds < 86_400) return `${(seconds / 3_600).toFixed(1)} hours`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

/** An exact token amount: 1500000000000000000n, 18, "ETH" -> "1.5 ETH" (at most 4 decimals). */
export function tokens(value: bigint, decimals: number, symbol: string): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const frac = abs % scale;
  let fracText = "";
  if (decimals > 0 && frac > 0n) {
    fracText = frac.toString().padStart(decimals, "0").slice(0, 4).replace(/0+$/, "");
  }
  const grouped = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${fracText ? `.${fracText}` : ""} ${symbol}`;
}

/** "1 hop" / "3 hops" */
export function hops(n: number): string {
  return `${n} hop${n === 1 ? "" : "s"}`;
}

/** Rounds to a fixed number of decimals, so that results carry no floating-point noise. */
export function round(n: number, decimals = 2): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}

/**
 * The UTC calendar day (YYYY-MM-DD) of a unix time, computed from the number of days since 1970 (H. Hinnant's
 * civil-from-days), so that the core needs no Date.
 */
export function utcDay(unixSeconds: number): string {
  const z = Math.floor(unixSeconds / 86_400) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
