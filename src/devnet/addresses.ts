// The addresses of the demo scenario worth analysing: one per risk pattern and the sanctions exposures at 1, 2 and 3
// hops, as `npm start` and `vigia devnet` print them and README.md lists them. The devnet is deterministic
// (devnetWorld's fixed seed), so they are the same on every machine.
import { devnetWorld, type World } from "../worlds/index.ts";

export interface DemoAddress {
  pattern: string;
  address: string;
  note: string;
}

/** The scenario's cases that must be found, in the order they were played. */
export function demoAddresses(world: World = devnetWorld()): DemoAddress[] {
  return world.cases
    .filter((c) => c.positive)
    .map((c) => ({ pattern: c.pattern, address: c.subject, note: c.note }));
}

/** One line each: the pattern, the address, what to look for. */
export function demoAddressLines(addresses: readonly DemoAddress[], indent = "    "): string[] {
  return addresses.map((a) => `${indent}${a.pattern.padEnd(20)} ${a.address}  (${a.note})`);
}
