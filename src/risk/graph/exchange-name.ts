// Which exchange a label names. Label sets name an exchange's wallets in many ways ("Binance 14", "Binance: Hot
// Wallet", "binance reserve wallets BTC", "Kraken 4", "Bitso: deposit address"); every wallet of one exchange must
// count as the same exchange (two Binance hot wallets are not two exchanges to hop between). The exchange is the
// label's first word, before any ":", " - ", "(" or "|": exchange names are one word in every label set the
// service reads (Binance, Coinbase, Crypto.com, Gate.io, OKX, Bitso, ...), and the words after it say which wallet.
// A label that starts with a word that names no one ("Exchange 12", "Hot wallet of X") keeps its whole head.

const GENERIC = new Set([
  "exchange",
  "hot",
  "cold",
  "wallet",
  "wallets",
  "deposit",
  "reserve",
  "main",
  "the",
]);

/** The exchange's name as the label writes it ("Binance 14" -> "Binance"). */
export function exchangeNameOfLabel(label: string): string {
  const head = (label.split(/:| - |\(|\|/)[0] ?? "").trim();
  const first = head.split(/\s+/)[0] ?? "";
  if (!first || GENERIC.has(first.toLowerCase()) || /^\d/.test(first)) return head || label.trim();
  return first;
}

/** The key that tells exchanges apart: the name, lower-cased. */
export function exchangeKeyOfLabel(label: string): string {
  return exchangeNameOfLabel(label).toLowerCase();
}
