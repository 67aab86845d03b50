// The labelled services every scenario shares: exchanges with hot wallets and per-customer deposit addresses,
// a mixer pool, a sanctioned address, a bridge. Generators route funds through them.
import type { Account, World } from "./world.ts";

export interface Exchange {
  name: string;
  /** the labelled wallet withdrawals come from */
  hot: Account;
  /**
   * The customer's deposit address (the same one for the same customer). Unlabelled, as exchanges' deposit
   * addresses are in real label sets; what it receives is swept to a labelled wallet of the exchange (World.send).
   */
  depositFor(customer: string): Account;
}

export interface Services {
  exchanges: Exchange[];
  mixer: Account;
  sanctioned: Account;
  bridge: Account;
}

/** An exchange named `name`: its labelled hot wallet, and a deposit address per customer swept to it. */
export function buildExchange(world: World, name: string): Exchange {
  const hot = world.account(`${name}.hot`, { label: `${name}: hot wallet`, category: "exchange" });
  return {
    name,
    hot,
    depositFor: (customer) => {
      const deposit = world.account(`${name}.deposit.${customer}`);
      world.registerDeposit(deposit, name, hot);
      return deposit;
    },
  };
}

export function buildServices(world: World): Services {
  return {
    exchanges: ["Bitso", "Binance", "Buda"].map((name) => buildExchange(world, name)),
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
