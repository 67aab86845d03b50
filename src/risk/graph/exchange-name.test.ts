// Every wallet of one exchange is named as that exchange, however its label set writes it.
import { describe, expect, it } from "vitest";
import { exchangeKeyOfLabel, exchangeNameOfLabel } from "./exchange-name.ts";

describe("exchange names from labels", () => {
  it.each([
    ["Binance 14", "Binance"],
    ["Binance: Hot Wallet", "Binance"],
    ["binance reserve wallets BTC", "binance"],
    ["Bitso: deposit address (inferred)", "Bitso"],
    ["Crypto.com 2", "Crypto.com"],
    ["Gate.io", "Gate.io"],
    ["OKX - cold wallet", "OKX"],
    ["Kraken (old)", "Kraken"],
    ["Exchange 12", "Exchange 12"],
    ["Hot wallet of X", "Hot wallet of X"],
  ])("%s -> %s", (label, name) => {
    expect(exchangeNameOfLabel(label)).toBe(name);
  });

  it("keys are case-insensitive", () => {
    expect(exchangeKeyOfLabel("binance reserve wallets BTC")).toBe(exchangeKeyOfLabel("Binance 14"));
    expect(exchangeKeyOfLabel("Bitso: hot wallet")).not.toBe(exchangeKeyOfLabel("Binance 14"));
  });
});
