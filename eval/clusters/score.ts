// Scores clustering on the labelled world (world.ts): CoinJoin detection per implementation (precision and
// recall, the detectors' verdict against the generator's truth), cross-owner merges (clusters that hold addresses
// of two owners or more: the failure that collapses unrelated people into one), and same-owner recall (of the
// pairs of one owner's addresses that spent at least once, the share clustered together). The same world is also
// clustered with the baseline rule graphsense-lib ports from BlockSci (`is_coinjoin`: the JoinMarket shape alone),
// to show what the gates prevent.
import { Clusterer, type CoinJoinVerdict, detectCoinJoin, type UtxoTx } from "../../src/risk/index.ts";
import type { ClusterWorld, LabelledTx } from "./world.ts";

export interface KindRow {
  kind: string;
  /** rounds of this kind in the world */
  rounds: number;
  detected: number;
  /** transactions of another truth (or none) detected as this kind */
  falsePositives: number;
  precision: number;
  recall: number;
}

export interface ClusteringRow {
  rule: string;
  clusters: number;
  /** clusters holding addresses of two owners or more */
  crossOwner: number;
  /** the largest number of owners in one cluster */
  worstOwners: number;
  /** over several worlds: their mean */
  sameOwnerRecall: number;
}

export interface ClusterReport {
  transactions: number;
  addresses: number;
  kinds: KindRow[];
  clustering: ClusteringRow[];
  /** look-alikes read as a CoinJoin, by what made them */
  lookalikeHits: Record<string, number>;
}

/** graphsense-lib's `is_coinjoin` (src/graphsenselib/ingest/utxo.py, from BlockSci's tx_identification). */
export function baselineIsCoinJoin(tx: UtxoTx): CoinJoinVerdict | undefined {
  const inputs = tx.inputs.length;
  const outputs = tx.outputs.length;
  if (inputs < 2 || outputs < 3) return undefined;
  const p = Math.floor((outputs + 1) / 2);
  if (p > inputs || p > new Set(tx.inputs.map((i) => i.address)).size) return undefined;
  const counts = new Map<bigint, number>();
  for (const o of tx.outputs) counts.set(o.value, (counts.get(o.value) ?? 0) + 1);
  const [value, count] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [0n, 0];
  if (count !== p || value === 546n || value === 2_730n) return undefined;
  return { kind: "joinmarket", confidence: "medium", reason: "graphsense-lib is_coinjoin" };
}

/** The kind the detectors should give each truth: Stonewall X2 reads as Stonewall (the two look alike). */
const expected = (t: LabelledTx) => (t.truth === "stonewall-x2" ? "stonewall" : t.truth);

function clustering(world: ClusterWorld, rule: string, clusterer: Clusterer): ClusteringRow {
  for (const t of world.txs) clusterer.add(t);
  const clusters = clusterer.clusters();
  let crossOwner = 0;
  let worstOwners = 1;
  for (const members of clusters.values()) {
    const owners = new Set(members.map((a) => world.owners.get(a)));
    if (owners.size > 1) crossOwner++;
    worstOwners = Math.max(worstOwners, owners.size);
  }
  // Same-owner pairs among the addresses that spent at least once.
  const spenders = new Map<string, string[]>();
  for (const t of world.txs) {
    for (const i of t.inputs) {
      if (i.address === null || world.services.has(i.address)) continue;
      const owner = world.owners.get(i.address) as string;
      const list = spenders.get(owner) ?? [];
      if (!list.includes(i.address)) list.push(i.address);
      spenders.set(owner, list);
    }
  }
  let pairs = 0;
  let together = 0;
  for (const list of spenders.values()) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        pairs++;
        if (clusterer.together(list[a] as string, list[b] as string)) together++;
      }
    }
  }
  return {
    rule,
    clusters: clusters.size,
    crossOwner,
    worstOwners,
    sameOwnerRecall: pairs === 0 ? 1 : together / pairs,
  };
}

export function scoreClusters(world: ClusterWorld): ClusterReport {
  const isService = (a: string) => world.services.has(a);
  const kinds = ["wasabi-1", "wabisabi", "whirlpool", "whirlpool-tx0", "joinmarket", "stonewall"];
  const rows = new Map(kinds.map((k) => [k, { kind: k, rounds: 0, detected: 0, falsePositives: 0 }]));
  const lookalikeHits: Record<string, number> = {};
  for (const t of world.txs) {
    const truth = expected(t);
    const verdict = detectCoinJoin(t, isService);
    if (truth !== "none") (rows.get(truth) as { rounds: number }).rounds++;
    if (!verdict) continue;
    const row = rows.get(verdict.kind) as { detected: number; falsePositives: number };
    if (verdict.kind === truth) row.detected++;
    else {
      row.falsePositives++;
      if (t.truth === "none") lookalikeHits[t.maker] = (lookalikeHits[t.maker] ?? 0) + 1;
    }
  }
  const addresses = new Set(
    world.txs.flatMap((t) => [...t.inputs, ...t.outputs].map((p) => p.address).filter((a) => a !== null)),
  ).size;
  return {
    transactions: world.txs.length,
    addresses,
    kinds: [...rows.values()].map((r) => ({
      ...r,
      precision: r.detected + r.falsePositives === 0 ? 1 : r.detected / (r.detected + r.falsePositives),
      recall: r.rounds === 0 ? 1 : r.detected / r.rounds,
    })),
    clustering: [
      clustering(world, "Vigía (fingerprints, Stonewall veto, service inputs)", new Clusterer({}, isService)),
      clustering(
        world,
        "baseline (graphsense-lib's is_coinjoin only)",
        new Clusterer({}, () => false, baselineIsCoinJoin),
      ),
      clustering(
        world,
        "no gate (common input alone)",
        new Clusterer(
          {},
          () => false,
          () => undefined,
        ),
      ),
    ],
    lookalikeHits,
  };
}

/** Several worlds' reports added up: counts summed, rates recomputed, the worst cluster the worst of all. */
export function combine(reports: readonly ClusterReport[]): ClusterReport {
  const kinds = new Map<string, KindRow>();
  for (const r of reports) {
    for (const k of r.kinds) {
      const row = kinds.get(k.kind) ?? { ...k, rounds: 0, detected: 0, falsePositives: 0 };
      row.rounds += k.rounds;
      row.detected += k.detected;
      row.falsePositives += k.falsePositives;
      kinds.set(k.kind, row);
    }
  }
  const clustering = (reports[0]?.clustering ?? []).map((c, i) => {
    const rows = reports.map((r) => r.clustering[i] as ClusteringRow);
    return {
      rule: c.rule,
      clusters: rows.reduce((n, x) => n + x.clusters, 0),
      crossOwner: rows.reduce((n, x) => n + x.crossOwner, 0),
      worstOwners: Math.max(...rows.map((x) => x.worstOwners)),
      sameOwnerRecall: rows.reduce((n, x) => n + x.sameOwnerRecall, 0) / rows.length,
    };
  });
  const lookalikeHits: Record<string, number> = {};
  for (const r of reports) {
    for (const [k, v] of Object.entries(r.lookalikeHits)) lookalikeHits[k] = (lookalikeHits[k] ?? 0) + v;
  }
  return {
    transactions: reports.reduce((n, r) => n + r.transactions, 0),
    addresses: reports.reduce((n, r) => n + r.addresses, 0),
    kinds: [...kinds.values()].map((k) => ({
      ...k,
      precision: k.detected + k.falsePositives === 0 ? 1 : k.detected / (k.detected + k.falsePositives),
      recall: k.rounds === 0 ? 1 : k.detected / k.rounds,
    })),
    clustering,
    lookalikeHits,
  };
}
