// README.md names the devnet scenario's addresses (between `<!-- devnet-addresses -->` markers), and docs/quickstart.md
// uses some of them: both must stay the addresses the scenario really has (devnetWorld, a fixed seed). The Tron
// devnet's, in base58check, are between `<!-- tron-devnet-addresses -->` markers (tronDevnetWorld, a fixed seed); the Bitcoin devnet's,
// between `<!-- bitcoin-devnet-addresses -->` markers (bitcoinDevnetWorld, a fixed seed).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoAddresses, tronDemoAddresses } from "../../src/devnet/addresses.ts";
import { bitcoinDemoAddresses } from "../../src/devnet/bitcoin-devnet.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

describe("the demo scenario's addresses in the documentation", () => {
  const scenario = demoAddresses();

  it("README.md lists every one, with its pattern and note, in the scenario's order", () => {
    const block =
      read("README.md").split("<!-- devnet-addresses -->")[1]?.split("<!-- /devnet-addresses -->")[0] ?? "";
    const rows = [...block.matchAll(/^\|\s*(\w+)\s*\|\s*`(0x[0-9a-f]{40})`\s*\|\s*(.+?)\s*\|$/gm)].map(
      (m) => ({
        pattern: m[1],
        address: m[2],
        note: m[3],
      }),
    );
    expect(rows).toEqual(scenario);
  });

  it("README.md lists every address of the Tron devnet, in base58, with its pattern and note, in order", () => {
    const block =
      read("README.md")
        .split("<!-- tron-devnet-addresses -->")[1]
        ?.split("<!-- /tron-devnet-addresses -->")[0] ?? "";
    const rows = [
      ...block.matchAll(/^\|\s*(\w+)\s*\|\s*`(T[1-9A-HJ-NP-Za-km-z]{33})`\s*\|\s*(.+?)\s*\|$/gm),
    ].map((m) => ({ pattern: m[1], address: m[2], note: m[3] }));
    expect(rows).toEqual(tronDemoAddresses());
  });

  it("README.md lists every address of the Bitcoin devnet (regtest bech32) with its pattern and note, in order", () => {
    const block =
      read("README.md")
        .split("<!-- bitcoin-devnet-addresses -->")[1]
        ?.split("<!-- /bitcoin-devnet-addresses -->")[0] ?? "";
    const rows = [
      ...block.matchAll(/^\|\s*(\w+)\s*\|\s*`(bcrt1[02-9ac-hj-np-z]{39})`\s*\|\s*(.+?)\s*\|$/gm),
    ].map((m) => ({ pattern: m[1], address: m[2], note: m[3] }));
    expect(rows).toEqual(bitcoinDemoAddresses());
  });

  it("every address docs/quickstart.md and the README's walk-through use is one of them (or the quickstart's own)", () => {
    const known = new Set(scenario.map((a) => a.address));
    known.add("0x00000000000000000000000000000000000a11ce"); // the quickstart's monitored customer
    for (const file of ["docs/quickstart.md", "README.md"]) {
      const used = [...read(file).matchAll(/0x[0-9a-f]{40}\b/g)].map((m) => m[0]);
      expect(used.length, file).toBeGreaterThan(0);
      for (const address of used) expect(known.has(address), `${file}: ${address}`).toBe(true);
    }
  });
});
