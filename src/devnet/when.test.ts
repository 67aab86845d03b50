import { describe, expect, it } from "vitest";
import { shouldRunDevnet } from "./when.ts";

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
