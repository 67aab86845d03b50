import { describe, expect, it } from "vitest";
import { followsDevnetChain, shouldRunDevnet } from "./when.ts";

const pg = "postgres://postgres@127.0.0.1:5432/test";

describe("shouldRunDevnet", () => {
  it("runs on the embedded default without chains, and on PostgreSQL only when asked", () => {
    expect(shouldRunDevnet({ chainsFile: undefined, databaseUrl: undefined, devnet: undefined }, true)).toBe(
      true,
    );
    expect(shouldRunDevnet({ chainsFile: undefined, databaseUrl: pg, devnet: undefined }, true)).toBe(false);
    expect(shouldRunDevnet({ chainsFile: undefined, databaseUrl: pg, devnet: true }, true)).toBe(true);
    expect(shouldRunDevnet({ chainsFile: undefined, databaseUrl: undefined, devnet: false }, true)).toBe(
      false,
    );
  });

  it("never with a chains file or without workers", () => {
    expect(shouldRunDevnet({ chainsFile: "chains.json", databaseUrl: undefined, devnet: true }, true)).toBe(
      false,
    );
    expect(shouldRunDevnet({ chainsFile: undefined, databaseUrl: undefined, devnet: undefined }, false)).toBe(
      false,
    );
  });
});

describe("followsDevnetChain", () => {
  it("not after a move to PostgreSQL, unless VIGIA_DEVNET=true or a chains file lists it", () => {
    expect(followsDevnetChain({ chainsFile: undefined, databaseUrl: pg, devnet: undefined }, false)).toBe(
      false,
    );
    expect(followsDevnetChain({ chainsFile: undefined, databaseUrl: pg, devnet: false }, false)).toBe(false);
    expect(followsDevnetChain({ chainsFile: undefined, databaseUrl: pg, devnet: true }, false)).toBe(true);
    expect(followsDevnetChain({ chainsFile: "chains.json", databaseUrl: pg, devnet: undefined }, false)).toBe(
      true,
    );
  });

  it("where the devnet runs: this process's own, or the embedded default", () => {
    expect(followsDevnetChain({ chainsFile: undefined, databaseUrl: pg, devnet: undefined }, true)).toBe(
      true,
    );
    expect(
      followsDevnetChain({ chainsFile: undefined, databaseUrl: undefined, devnet: undefined }, false),
    ).toBe(true);
    expect(followsDevnetChain({ chainsFile: undefined, databaseUrl: undefined, devnet: false }, false)).toBe(
      false,
    );
  });
});
