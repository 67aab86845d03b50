// presentAddresses: an answer that concerns EVM chains only is given back as it is (the same object, nothing copied);
// one with a Tron-kind chain anywhere in it has exactly that part written in base58check.
import { describe, expect, it } from "vitest";
import { EVM_CODEC, TRON_CODEC } from "./codec.ts";
import { presentAddresses } from "./present.ts";
import { tronBase58 } from "./tron.ts";

const TRON = 728126428;
const codecOf = (id: number) => (id === TRON ? TRON_CODEC : EVM_CODEC);
const a = `0x${"ab".repeat(20)}`;
const b = `0x${"cd".repeat(20)}`;

describe("presentAddresses", () => {
  it("gives an EVM-only answer back as the same object", () => {
    const answer = {
      address: a,
      reason: `Sent to ${b}.`,
      coverage: { chainId: "1", source: "index" },
      nodes: { [a]: { label: null }, [b]: { label: "x" } },
      results: [{ chainId: 137, address: b }],
    };
    expect(presentAddresses(answer, codecOf, EVM_CODEC)).toBe(answer);
    expect(presentAddresses(answer, codecOf, undefined)).toBe(answer);
  });

  it("writes the addresses under a Tron-kind chain, from the request or from an object of the answer", () => {
    expect(presentAddresses({ address: a, reason: `Sent to ${b}.` }, codecOf, TRON_CODEC)).toEqual({
      address: tronBase58(a),
      reason: `Sent to ${tronBase58(b)}.`,
    });
    const mixed = {
      evm: { chainId: 1, address: a },
      tron: { chainId: String(TRON), address: a, nodes: { [b]: { peer: a } } },
    };
    const out = presentAddresses(mixed, codecOf, undefined) as typeof mixed;
    expect(out.evm).toBe(mixed.evm);
    expect(out.tron).toEqual({
      chainId: String(TRON),
      address: tronBase58(a),
      nodes: { [tronBase58(b)]: { peer: tronBase58(a) } },
    });
  });

  it("leaves an EVM object inside a Tron answer as it is", () => {
    const inner = { chainId: 1, address: a };
    const out = presentAddresses({ address: b, other: inner }, codecOf, TRON_CODEC) as Record<
      string,
      unknown
    >;
    expect(out.address).toBe(tronBase58(b));
    expect(out.other).toBe(inner);
  });
});
