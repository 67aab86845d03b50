// The addresses of the demo scenario worth analysing: one per risk pattern and the sanctions exposures at 1, 2 and 3
// hops, as `npm start` and `vigia devnet` print them and README.md lists them. The devnet is deterministic
// (devnetWorld's fixed seed), so they are the same on every machine. The Tron devnet's (tronDemoAddresses) are
// written as Tron's users write them, in base58check (`T…`), which is also what the API answers about that chain.
import { tronBase58 } from "../chains/address/index.ts";
import { type Case, devnetWorld, tronDevnetWorld, type World } from "../worlds/index.ts";

export interface DemoAddress {
  pattern: string;
  address: string;
  note: string;
}

/** The scenario's cases that must be found, in the order they were played (any world's: EVM, Tron, Bitcoin). */
export function demoAddresses(world: { cases: readonly Case[] } = devnetWorld()): DemoAddress[] {
  return world.cases
    .filter((c) => c.positive)
    .map((c) => ({ pattern: c.pattern, address: c.subject, note: c.note }));
}

/** The Tron devnet's cases, their addresses in base58check. */
export function tronDemoAddresses(world: World = tronDevnetWorld().world): DemoAddress[] {
  return demoAddresses(world).map((a) => ({ ...a, address: tronBase58(a.address) }));
}

/** One line each: the pattern, the address, what to look for. */
export function demoAddressLines(addresses: readonly DemoAddress[], indent = "    "): string[] {
  return addresses.map((a) => `${indent}${a.pattern.padEnd(20)} ${a.address}  (${a.note})`);
}
