// Address clusters that do not collapse: common inputs merge one owner's addresses (incrementally, with the
// transactions that joined them and a stable id), while a WabiSabi round's or a Whirlpool mix's inputs are never
// merged (recorded as excluded CoinJoins), a Stonewall is vetoed, a labelled service's spend merges nothing, and a
// cluster reaching the service-scale size is marked and merged no further.
import { describe, expect, it } from "vitest";
import { Clusterer, type StoredCluster } from "./clusters.ts";
import { WABISABI_DENOMINATIONS } from "./coinjoin.ts";
import type { UtxoPart, UtxoTx } from "./types.ts";

const p = (address: string, value: number, script: UtxoPart["script"] = "p2wpkh"): UtxoPart => ({
  address,
  value: BigInt(value),
  script,
});
let n = 0;
const tx = (inputs: UtxoPart[], outputs: UtxoPart[], txid = `tx${n++}`): UtxoTx => ({
  txid,
  inputs,
  outputs,
});
const times = <T>(k: number, f: (i: number) => T) => Array.from({ length: k }, (_, i) => f(i));

/** A WabiSabi round of `k` participants: their inputs largest first, standard denominations out. */
function wabiSabiRound(prefix: string, k: number): UtxoTx {
  const denominations = [...WABISABI_DENOMINATIONS].filter((v) => v > 100_000n && v < 10_000_000n);
  const inputs = times(k, (i) => p(`${prefix}-in${i}`, 40_000_000 - i * 100_000));
  const outputs = times(k * 2, (i) => p(`${prefix}-out${i}`, Number(denominations[i % denominations.length])))
    .concat([p(`${prefix}-odd`, 1_234_567)])
    .sort((a, b) => (a.value > b.value ? -1 : a.value < b.value ? 1 : 0));
  return tx(inputs, outputs);
}

describe("address clusters", () => {
  it("merges one owner's co-spent addresses, incrementally, with the transactions that joined them", () => {
    const c = new Clusterer();
    expect(c.add(tx([p("a1", 100), p("a2", 200)], [p("x", 290)], "t1"))).toEqual({
      merged: true,
      reason: "common-input",
    });
    c.add(tx([p("b1", 100), p("b2", 200)], [p("y", 290)], "t2"));
    expect(c.together("a1", "b1")).toBe(false);
    // a2 and b2 spent together: one owner of all four.
    c.add(tx([p("a2", 50), p("b2", 60)], [p("z", 100)], "t3"));
    expect(c.together("a1", "b1")).toBe(true);
    expect(c.clusterOf("b2")).toEqual({
      id: "c:a1",
      size: 4,
      addresses: ["a1", "a2", "b1", "b2"],
      joinedBy: ["t1", "t2", "t3"],
      coinjoinsExcluded: [],
      serviceScale: false,
      refusedMerges: 0,
    });
    // Outputs are known, never merged by their payer's inputs.
    expect(c.clusterOf("x")?.size).toBe(1);
    expect(c.add(tx([p("a1", 10)], [p("q", 9)]))).toEqual({ merged: false, reason: "single-address" });
  });

  it("never merges a WabiSabi round's inputs, and records the round against each participant", () => {
    const c = new Clusterer();
    // Each participant had a wallet of two addresses before.
    for (let i = 0; i < 30; i++) c.add(tx([p(`r-in${i}`, 1), p(`own${i}`, 1)], [p(`chg${i}`, 1)]));
    const round = wabiSabiRound("r", 30);
    const step = c.add(round);
    expect(step).toMatchObject({ merged: false, reason: "coinjoin", coinjoin: { kind: "wabisabi" } });
    for (let i = 1; i < 30; i++) expect(c.together("r-in0", `r-in${i}`)).toBe(false);
    expect(c.clusterOf("own7")).toMatchObject({
      size: 2,
      coinjoinsExcluded: [{ txid: round.txid, kind: "wabisabi", confidence: "high" }],
    });
  });

  it("never merges a Whirlpool mix's inputs; a tx0's inputs are one wallet's", () => {
    const c = new Clusterer();
    const pool = 1_000_000;
    const mix = tx(
      [p("w1", pool + 5_000), p("w2", pool + 7_000), p("w3", pool), p("w4", pool), p("w5", pool)],
      times(5, (i) => p(`m${i}`, pool)),
    );
    expect(c.add(mix)).toMatchObject({ merged: false, reason: "coinjoin", coinjoin: { kind: "whirlpool" } });
    expect(c.together("w1", "w2")).toBe(false);
    const tx0 = tx(
      [p("u1", 7_000_000), p("u2", 4_000_000)],
      [
        ...times(5, (i) => p(`pre${i}`, pool + 6_000)),
        p("", 0, "op_return"),
        p("fee", 50_000),
        p("chg", 5_900_000),
      ],
    );
    expect(c.add(tx0)).toEqual({ merged: true, reason: "common-input" });
    expect(c.together("u1", "u2")).toBe(true);
  });

  it("vetoes a Stonewall and merges nothing through a labelled service", () => {
    const c = new Clusterer({}, (a) => a === "exchange-hot");
    const sw = tx(
      [p("s1", 3_000_000), p("s2", 2_500_000)],
      [p("o1", 1_000_000), p("o2", 1_000_000), p("o3", 1_997_000), p("o4", 1_497_000)],
    );
    expect(c.add(sw)).toMatchObject({ merged: false, reason: "stonewall" });
    expect(c.together("s1", "s2")).toBe(false);
    expect(c.add(tx([p("exchange-hot", 9), p("deposit1", 1), p("deposit2", 1)], [p("cold", 10)]))).toEqual({
      merged: false,
      reason: "service-input",
    });
    expect(c.together("deposit1", "deposit2")).toBe(false);
  });

  it("takes the fingerprint its reader read, reading again only where a service's input changes the answer", () => {
    const c = new Clusterer({}, (a) => a === "exchange-hot");
    // A WabiSabi round whose reader found no fingerprint (fingerprint: null): the verdict given is the one used.
    const round = { ...wabiSabiRound("given", 25), fingerprint: null };
    expect(c.add(round)).toEqual({ merged: true, reason: "common-input" });
    // A JoinMarket-shaped spend, read as one without services, from a labelled exchange's wallet: read again, and
    // a service's spend is not JoinMarket: its inputs merge nothing, as any spend of a service's.
    const amount = 12_345_678;
    const inputs = [
      p("exchange-hot", 30_000_000),
      ...times(8, (i) => p(`jm${i}`, 20_000_000 + i * 1_000_003)),
    ];
    const outputs = [
      ...times(9, (i) => p(`eq${i}`, amount)),
      ...times(8, (i) => p(`ch${i}`, 3_000_000 + i * 54_321)),
    ];
    const verdict = { kind: "joinmarket" as const, confidence: "medium" as const, reason: "as read" };
    expect(c.add({ ...tx(inputs, outputs), fingerprint: verdict })).toEqual({
      merged: false,
      reason: "service-input",
    });
  });

  it("marks a cluster that reaches the service-scale size and merges no more into it", () => {
    const c = new Clusterer({ serviceScale: 5, keep: 3 });
    c.add(tx([p("s0", 1), p("s1", 1), p("s2", 1)], [p("o", 1)]));
    c.add(tx([p("s2", 1), p("s3", 1), p("s4", 1)], [p("o", 1)]));
    expect(c.clusterOf("s0")?.size).toBe(5);
    // A sixth address would pass the size: refused, the cluster marked.
    expect(c.add(tx([p("s4", 1), p("newcomer", 1)], [p("o", 1)]))).toEqual({
      merged: false,
      reason: "service-scale",
    });
    expect(c.clusterOf("s0")).toMatchObject({
      size: 5,
      serviceScale: true,
      refusedMerges: 1,
      addresses: ["s0", "s1", "s2"],
    });
    expect(c.together("s0", "newcomer")).toBe(false);
    // Small clusters go on merging among themselves.
    expect(c.add(tx([p("newcomer", 1), p("friend", 1)], [p("o", 1)]))).toEqual({
      merged: true,
      reason: "common-input",
    });
  });

  it("gives the same clusters and ids for the same transactions in the same order", () => {
    const run = () => {
      const c = new Clusterer();
      c.add(tx([p("k2", 1), p("k1", 1)], [p("o", 1)], "a"));
      c.add(tx([p("k3", 1), p("k2", 1)], [p("o", 1)], "b"));
      return [...c.clusters()];
    };
    expect(run()).toEqual(run());
    expect(run()).toEqual([["c:k2", ["k2", "k1", "o", "k3"].filter((a) => a !== "o")]]);
  });

  it("continues stored clusters batch by batch: the same clusters as one pass, the earliest id kept", () => {
    const batches = [
      [tx([p("a1", 1), p("a2", 1)], [p("x", 1)], "t1"), tx([p("b1", 1), p("b2", 1)], [p("y", 1)], "t2")],
      [tx([p("b2", 1), p("c1", 1)], [p("z", 1)], "t3"), tx([p("a2", 1), p("b1", 1)], [p("z", 1)], "t4")],
      [tx([p("c1", 1), p("d1", 1)], [p("z", 1)], "t5")],
    ];
    // A store as a map of key -> cluster and address -> key, written from each batch's changes.
    const rows = new Map<string, Omit<StoredCluster, "members">>();
    const memberOf = new Map<string, string>();
    let next = 1;
    for (const batch of batches) {
      const c = new Clusterer();
      const named = new Set(
        batch.flatMap((t) => [...t.inputs, ...t.outputs].map((i) => i.address as string)),
      );
      const keys = [...new Set([...named].flatMap((a) => memberOf.get(a) ?? []))].sort(
        (x, y) => Number(x) - Number(y),
      );
      for (const key of keys) {
        const row = rows.get(key) as Omit<StoredCluster, "members">;
        c.seed({ ...row, members: [...named].filter((a) => memberOf.get(a) === key) });
      }
      for (const t of batch) c.add(t);
      for (const change of c.changes()) {
        const key = change.key ?? String(next++);
        rows.set(key, { ...change, key });
        for (const gone of change.absorbed) {
          rows.delete(gone);
          for (const [a, k] of memberOf) if (k === gone) memberOf.set(a, key);
        }
        for (const a of change.newMembers) memberOf.set(a, key);
      }
    }
    const onePass = new Clusterer();
    for (const t of batches.flat()) onePass.add(t);
    expect(rows.size).toBe(1);
    const [stored] = [...rows.values()];
    expect(stored).toMatchObject({
      id: "c:a1",
      size: 6,
      joinedBy: onePass.clusterOf("a1")?.joinedBy,
      addresses: onePass.clusterOf("a1")?.addresses,
    });
    expect(new Set(memberOf.keys())).toEqual(new Set(onePass.clusters().get("c:a1")));
    // Adding a batch again changes nothing.
    const again = new Clusterer();
    const all = [...memberOf.keys()];
    again.seed({ ...(stored as Omit<StoredCluster, "members">), members: all });
    for (const t of batches.flat()) again.add(t);
    expect(again.changes().filter((c) => c.key !== undefined)).toEqual([]);
  });

  it("keeps a participant's excluded CoinJoin once, however often the round is added", () => {
    const c = new Clusterer();
    const round = wabiSabiRound("twice", 30);
    c.add(round);
    c.add(round);
    expect(c.clusterOf("twice-in3")?.coinjoinsExcluded.map((e) => e.txid)).toEqual([round.txid]);
    // Each participant alone, with its round: kept by a store.
    expect(c.changes().filter((ch) => ch.coinjoinsExcluded.length > 0)).toHaveLength(30);
  });

  it("keeps the lists in the order seen when a bigger, later cluster takes in the earliest", () => {
    const c = new Clusterer({ keep: 3 });
    c.add(tx([p("e1", 1), p("e2", 1)], [p("o", 1)], "early"));
    c.add(tx([p("l1", 1), p("l2", 1), p("l3", 1), p("l4", 1)], [p("o", 1)], "late"));
    c.add(tx([p("e2", 1), p("l4", 1)], [p("o", 1)], "join"));
    expect(c.clusterOf("l1")).toMatchObject({
      id: "c:e1",
      size: 6,
      addresses: ["e1", "e2", "l1"],
      joinedBy: ["early", "late", "join"],
    });
  });
});
