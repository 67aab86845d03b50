// The deposit-address heuristic on small histories: a deposit address that sweeps to one exchange is attributed
// with its evidence; one that sweeps to two exchanges, an ordinary user who sometimes pays an exchange, a busy
// merchant that cashes out weekly and pays suppliers, funds left for weeks, and a too-busy address are not.
import { describe, expect, it } from "vitest";
import { type HistoryTransfer, judgeDepositAddress } from "./deposit-heuristic.ts";

const HOUR = 3_600;
const DAY = 86_400;
const T0 = 1_700_000_000;
const E6 = 1_000_000n;
const binance = { key: "binance", name: "Binance" };
const bitso = { key: "bitso", name: "Bitso" };

/** USDV-like transfers (6 decimals, USD 1 each unit). */
const t = (
  out: boolean,
  counterparty: string,
  usd: number,
  at: number,
  exchange?: { key: string; name: string },
): HistoryTransfer => ({
  out,
  counterparty,
  token: "usdv",
  value: BigInt(Math.round(usd)) * E6,
  usd,
  at,
  ...(exchange ? { exchange } : {}),
});

const judge = (transfers: HistoryTransfer[], truncated = false) =>
  judgeDepositAddress({ address: "0xd", transfers, truncated });

describe("deposit-address heuristic", () => {
  it("attributes an address whose receipts are swept to one exchange's wallets, with its evidence", () => {
    const verdict = judge([
      t(false, "0xuser", 500, T0),
      t(true, "0xhot1", 500, T0 + 2 * HOUR, binance),
      t(false, "0xuser", 1_200, T0 + 3 * DAY),
      t(false, "0xfriend", 300, T0 + 3 * DAY + HOUR),
      t(true, "0xhot2", 1_500, T0 + 3 * DAY + 5 * HOUR, binance),
      // Arrived after the last sweep: waiting for the next one, not held against the address.
      t(false, "0xuser", 800, T0 + 9 * DAY),
    ]);
    expect(verdict).toEqual({
      attributed: true,
      attribution: {
        address: "0xd",
        exchange: "Binance",
        hotWallets: ["0xhot1", "0xhot2"],
        sweeps: 2,
        received: 4,
        senders: 2,
        sweptShare: 1,
        medianSweepSeconds: 3.5 * HOUR,
        confidence: 0.8,
        firstSweepAt: T0 + 2 * HOUR,
        lastSweepAt: T0 + 3 * DAY + 5 * HOUR,
      },
    });
  });

  it("does not count the exchange's own transfers in (gas for token sweeps) as received", () => {
    const gas = (at: number): HistoryTransfer => ({
      out: false,
      counterparty: "0xhot1",
      token: "native",
      value: 10n ** 15n,
      usd: 2.5,
      at,
      exchange: binance,
    });
    const verdict = judge([
      t(false, "0xuser", 900, T0),
      gas(T0 + HOUR),
      t(true, "0xhot1", 900, T0 + 2 * HOUR, binance),
    ]);
    expect(verdict).toMatchObject({ attributed: true, attribution: { received: 1, sweptShare: 1 } });
  });

  it("leaves alone an address that sweeps to two exchanges", () => {
    expect(
      judge([
        t(false, "0xuser", 500, T0),
        t(true, "0xhot1", 250, T0 + HOUR, binance),
        t(true, "0xbitso", 250, T0 + 2 * HOUR, bitso),
      ]),
    ).toEqual({ attributed: false, reason: "sends to 2 exchanges" });
  });

  it("leaves alone an ordinary user who sometimes pays an exchange", () => {
    const life: HistoryTransfer[] = [t(false, "0xemployer", 1_400, T0)];
    for (let i = 0; i < 8; i++) life.push(t(true, `0xshop${i}`, 40 + i, T0 + (i + 1) * DAY));
    life.push(t(true, "0xhot1", 300, T0 + 10 * DAY, binance));
    expect(judge(life)).toEqual({ attributed: false, reason: "8 of 9 outgoing transfers go elsewhere" });
  });

  it("leaves alone a busy merchant that cashes out weekly and pays its suppliers", () => {
    const merchant: HistoryTransfer[] = [];
    for (let week = 0; week < 6; week++) {
      const at = T0 + week * 7 * DAY;
      for (let c = 0; c < 30; c++) merchant.push(t(false, `0xcustomer${week}-${c}`, 20 + c, at + c * HOUR));
      merchant.push(t(true, "0xhot1", 600, at + 6 * DAY, binance));
      merchant.push(t(true, `0xsupplier${week % 3}`, 300, at + 6 * DAY + HOUR));
    }
    expect(judge(merchant)).toMatchObject({
      attributed: false,
      reason: "6 of 12 outgoing transfers go elsewhere",
    });
  });

  it("leaves alone funds that wait weeks before they move, and an address swept of a small part only", () => {
    expect(judge([t(false, "0xuser", 500, T0), t(true, "0xhot1", 500, T0 + 30 * DAY, binance)])).toEqual({
      attributed: false,
      reason: "funds wait too long for their sweep",
    });
    expect(judge([t(false, "0xuser", 1_000, T0), t(true, "0xhot1", 400, T0 + HOUR, binance)])).toEqual({
      attributed: false,
      reason: "swept 40% of what it received",
    });
  });

  it("leaves alone an address too busy to be one customer's, or that only the exchange pays", () => {
    expect(
      judge([t(false, "0xuser", 500, T0), t(true, "0xhot1", 500, T0 + HOUR, binance)], true),
    ).toMatchObject({
      attributed: false,
    });
    expect(judge([t(false, "0xhot1", 500, T0, binance), t(true, "0xhot1", 500, T0 + HOUR, binance)])).toEqual(
      { attributed: false, reason: "receives only from the exchange" },
    );
  });
});
