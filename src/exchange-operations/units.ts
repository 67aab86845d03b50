// The unit and amount an operation is valued at: the fiat side of a trade (what the client paid or received), a
// fiat movement's own currency, a swap or crypto movement's asset, a fee's denomination; a custody snapshot is no
// operation of value.
import type { OperationItem } from "./schemas.ts";

export function unitOf(o: OperationItem): { unit: string; amount: string } | null {
  switch (o.kind) {
    case "buy":
    case "sell":
      return { unit: `fiat:${o.currency}`, amount: o.fiatAmount };
    case "fiat_deposit":
    case "fiat_withdrawal":
      return { unit: `fiat:${o.currency}`, amount: o.amount };
    case "swap":
    case "crypto_deposit":
    case "crypto_withdrawal":
      return { unit: `asset:${o.asset}`, amount: o.amount };
    case "fee":
      return o.currency
        ? { unit: `fiat:${o.currency}`, amount: o.amount }
        : { unit: `asset:${o.asset}`, amount: o.amount };
    case "custody_snapshot":
      return null;
  }
}
