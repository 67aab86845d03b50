// Bridge legs in the store: written with their batch and marked on their address, taken back by a reorg's unwind,
// and paired only with one leg on the chain they name (two claimants: ambiguous; none: not found, or a chain not
// indexed).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeLeg } from "../../src/chains/indexer/bridge-events.ts";
import { unwindTo, writeBatch } from "../../src/chains/indexer/store.ts";
import { insertBridgeLegs } from "../../src/chains/store/bridge-legs.ts";
import { readAddressFacts, readBridgeCrossings } from "../../src/ledger/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
const A = `0x${"a1".repeat(20)}`;
const B = `0x${"b2".repeat(20)}`;
const C = `0x${"c3".repeat(20)}`;
const TOKEN = `0x${"70".repeat(20)}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

function leg(over: Partial<BridgeLeg>): BridgeLeg {
  return {
    chainId: 1,
    txHash: hash(1),
    logIndex: 0,
    blockNumber: 5n,
    blockTime: new Date("2026-11-01T10:00:00Z"),
    protocol: "across",
    direction: "out",
    pairKey: "1:7",
    contract: `0x${"dd".repeat(20)}`,
    sender: A,
    recipient: B,
    token: TOKEN,
    amount: 1_000n,
    otherRef: "chain:8453",
    otherChainId: 8453,
    ...over,
  };
}

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("bridge legs in the store", () => {
  it("writes a batch's legs with it, marks their addresses, and a reorg's unwind takes the legs back", async () => {
    const chainId = 77;
    const block = { chainId, number: 5n, hash: hash(5), parentHash: hash(4), timestamp: new Date() };
    const rows = {
      blocks: [block],
      transfers: [],
      tokens: [],
      contracts: [],
      bridgeLegs: [
        leg({ chainId }),
        leg({ chainId, logIndex: 1, direction: "in", pairKey: "9:1", recipient: C }),
      ],
    };
    await writeBatch(database.db, chainId, rows, undefined, { number: 5n, hash: hash(5) });
    // Replayed after a crash: nothing twice.
    await insertBridgeLegs(database.db, rows.bridgeLegs);
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom("bridge_legs")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("chain_id", "=", chainId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(2);
    const facts = await readAddressFacts(database.db, chainId, [A, B, C]);
    // The depositor of the out leg and the recipient of the in leg; not the out leg's recipient (another chain's).
    expect([A, B, C].map((a) => facts.get(a)?.bridged)).toEqual([true, false, true]);

    await unwindTo(database.db, chainId, undefined, 1n, { number: 5n, hash: hash(5) });
    expect(await count()).toBe(0);
  });

  it("pairs a leg with the one leg on the chain it names, and says why it cannot when it cannot", async () => {
    await insertBridgeLegs(database.db, [
      // Paired: out on chain 1, in on 8453.
      leg({ txHash: hash(11), logIndex: 1, pairKey: "1:100" }),
      leg({
        chainId: 8453,
        txHash: hash(12),
        direction: "in",
        pairKey: "1:100",
        otherRef: "chain:1",
        otherChainId: 1,
      }),
      // A claimant on a chain other than the one the leg names is no partner.
      leg({
        chainId: 10,
        txHash: hash(13),
        direction: "in",
        pairKey: "1:100",
        otherRef: "chain:1",
        otherChainId: 1,
      }),
      // Two claimants on the named chain: ambiguous.
      leg({ txHash: hash(21), logIndex: 2, pairKey: "1:200" }),
      leg({
        chainId: 8453,
        txHash: hash(22),
        direction: "in",
        pairKey: "1:200",
        otherRef: "chain:1",
        otherChainId: 1,
      }),
      leg({
        chainId: 8453,
        txHash: hash(23),
        direction: "in",
        pairKey: "1:200",
        otherRef: "chain:1",
        otherChainId: 1,
      }),
      // No other leg: to a chain nobody indexes here.
      leg({ txHash: hash(31), logIndex: 3, pairKey: "1:300", otherRef: "chain:137", otherChainId: 137 }),
      // Claims the first crossing's key, but names another depositor: no partner of it.
      leg({
        chainId: 8453,
        txHash: hash(14),
        direction: "in",
        pairKey: "1:100",
        sender: C,
        otherRef: "chain:1",
        otherChainId: 1,
      }),
    ]);
    const { crossings, capped } = await readBridgeCrossings(database.db, 1, [A], 100);
    expect(capped).toEqual([]);
    // Newest first.
    expect(
      crossings.map((c) => ({
        tx: c.leg.txHash,
        other: c.other?.txHash ?? null,
        ambiguous: c.ambiguous ?? false,
        held: c.otherChainHeld,
      })),
    ).toEqual([
      // Nothing of chain 137 in the store: not held.
      { tx: hash(31), other: null, ambiguous: false, held: false },
      // No checkpoint and no blocks of 8453 or 10, but their legs: held (as an import of their logs holds them).
      { tx: hash(21), other: null, ambiguous: true, held: true },
      { tx: hash(11), other: hash(12), ambiguous: false, held: true },
    ]);
    // Within a window; and at most so many per address, the newest, the cut said.
    const windowed = await readBridgeCrossings(database.db, 1, [A], 100, {
      to: Date.parse("2026-10-31") / 1000,
    });
    expect(windowed.crossings).toEqual([]);
    const cut = await readBridgeCrossings(database.db, 1, [A], 2);
    expect(cut.crossings.map((c) => c.leg.txHash)).toEqual([hash(31), hash(21)]);
    expect(cut.capped).toEqual([A]);
    // Seen from the recipient's chain, the deposit is the one partner.
    const received = (await readBridgeCrossings(database.db, 8453, [B], 100)).crossings;
    expect(received.find((c) => c.leg.txHash === hash(12))?.other?.txHash).toBe(hash(11));
  });
});
