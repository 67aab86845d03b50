// The labelled services every scenario shares: exchanges with hot wallets and per-customer deposit addresses,
// a mixer pool, a sanctioned address, a bridge. Generators route funds through them.
import type { Account, World } from "./world.ts";

export interface Exchange {
  name: string;
  hot: Account;
  /** A fresh deposit address for a customer; deposit addresses are labelled as the exchange's. */
  depositFor(customer: string): Account;
}

export interface Services {
  exchanges: Exchange[];
  mixer: Account;
  sanctioned: Account;
  bridge: Account;
}

function exchange(world: World, name: string): Exchange {
  const label = { label: `${name}: hot wallet`, category: "exchange" };
  return {
    name,
    hot: world.account(`${name}.hot`, label),
    depositFor: (customer) =>
      world.account(`${name}.deposit.${customer}`, {
        label: `${name}: deposit address`,
        category: "exchange",
      }),
  };
}

export function buildServices(world: World): Services {
  return {
    exchanges: ["Bitso", "Binance", "Buda"].map((name) => exchange(world, name)),
    mixer: world.account("mixer.pool-1eth", {
      label: "Tornado.Cash: 1 ETH (devnet pool)",
      category: "mixer",
    }),
    sanctioned: world.account("sanctioned.lazarus", {
      label: "OFAC SDN: Lazarus Group (devnet)",
      category: "sanctioned",
    }),
    bridge: world.account("bridge.hop", { label: "Hop Protocol bridge (devnet)", category: "bridge" }),
  };
}
