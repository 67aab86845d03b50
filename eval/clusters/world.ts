// The clustering eval's labelled Bitcoin world (`npm run eval -- clusters`, docs/eval.md "Bitcoin clusters"): owners
// who receive, co-spend and pay each other, exchanges (labelled) that batch payouts and consolidate deposits,
// employers paying equal salaries, peel chains, and CoinJoin rounds of each implementation with owners' coins as
// participants: Wasabi 1 (a round's base just under 0.1 BTC, equal outputs, change, a coordinator fee), WabiSabi
// (participants' amounts decomposed into the standard denominations, inputs and outputs largest first; a fifth
// of the rounds unordered, as another coordinator might sign them), Whirlpool (tx0s and 5-8-party mixes of
// entrants and remixes), JoinMarket (a taker and 4-10 makers, equal outputs and the makers' change) and
// Stonewall (one wallet) and Stonewall X2 (two). Every address has its owner; every transaction says whether it
// is a round and of what. The generator is its own code, written from the implementations' descriptions, not from
// the detectors: parameters are drawn across what the implementations do, not at the detectors' thresholds.
// Everything derives from the seed.
import { Rng } from "../../src/platform/rng.ts";
import {
  type CoinJoinKind,
  type UtxoPart,
  type UtxoTx,
  WABISABI_DENOMINATIONS,
} from "../../src/risk/index.ts";

export interface LabelledTx extends UtxoTx {
  /** the round this transaction is, or "none" (payments, batches, consolidations, salaries, peels) */
  truth: CoinJoinKind | "stonewall-x2" | "none";
  /** what made it, for the per-kind tables of look-alikes */
  maker: string;
}

export interface ClusterWorld {
  txs: LabelledTx[];
  /** address -> owner */
  owners: Map<string, string>;
  /** the labelled exchanges' addresses */
  services: Set<string>;
}

export interface ClusterWorldOptions {
  seed: number;
  owners: number;
  /** rounds of each CoinJoin implementation */
  rounds: number;
}

const BTC = 100_000_000;
const STANDARD = [...WABISABI_DENOMINATIONS]
  .filter((v) => v <= 2_000_000_000n)
  .sort((a, b) => (a < b ? 1 : -1));

interface Coin {
  address: string;
  value: number;
  owner: string;
  script: UtxoPart["script"];
}

export function clusterWorld(opts: ClusterWorldOptions): ClusterWorld {
  const rng = new Rng(opts.seed);
  const owners = new Map<string, string>();
  const services = new Set<string>();
  const txs: LabelledTx[] = [];
  let addresses = 0;
  let txids = 0;
  const fresh = (owner: string) => {
    const address = `bc1q${(addresses++).toString(36).padStart(10, "0")}`;
    owners.set(address, owner);
    return address;
  };
  const part = (c: { address: string; value: number; script?: UtxoPart["script"] }): UtxoPart => ({
    address: c.address,
    value: BigInt(Math.round(c.value)),
    script: c.script ?? "p2wpkh",
  });
  const emit = (
    inputs: UtxoPart[],
    outputs: UtxoPart[],
    truth: LabelledTx["truth"],
    maker: string,
  ): LabelledTx => {
    const t: LabelledTx = { txid: `tx${(txids++).toString(16)}`, inputs, outputs, truth, maker };
    txs.push(t);
    return t;
  };

  // Each owner's unspent coins.
  const wallet = new Map<string, Coin[]>();
  const receive = (owner: string, value: number, script: UtxoPart["script"] = "p2wpkh"): Coin => {
    const coin = { address: fresh(owner), value, owner, script };
    const list = wallet.get(owner) ?? [];
    list.push(coin);
    wallet.set(owner, list);
    return coin;
  };
  const take = (owner: string, k: number): Coin[] => {
    const list = wallet.get(owner) ?? [];
    return list.splice(0, Math.min(k, list.length));
  };

  // Exchanges: labelled hot wallets, customers' deposit addresses (the exchange's), consolidations, batches.
  const exchanges = ["exchange-a", "exchange-b", "exchange-c"];
  const hot = new Map(exchanges.map((e) => [e, fresh(e)]));
  for (const h of hot.values()) services.add(h);
  const people = Array.from({ length: opts.owners }, (_, i) => `owner${i}`);
  const scriptOf = (i: number): UtxoPart["script"] => (i % 5 === 0 ? "p2tr" : "p2wpkh");

  // Everyone starts with withdrawals from an exchange's batch payouts: 20-80 outputs of varied amounts, a few of
  // which may repeat, from the hot wallet (and its change back to it).
  for (let b = 0; b * 40 < opts.owners * 2; b++) {
    const exchange = exchanges[b % exchanges.length] as string;
    const payees = rng.shuffle(people).slice(0, rng.int(20, 80));
    const outputs = payees.map((o, i) => {
      const value = rng.chance(0.15) ? 0.1 * BTC : Math.round(rng.logNormal(0.05 * BTC, 1.2));
      return part(receive(o, value, scriptOf(i)));
    });
    emit(
      [part({ address: hot.get(exchange) as string, value: 50 * BTC })],
      [...outputs, part({ address: hot.get(exchange) as string, value: 10 * BTC })],
      "none",
      "exchange-batch",
    );
  }

  // Ordinary spends: 1-3 of the owner's coins to another owner, change to a fresh address of its own.
  const pay = (owner: string, maker = "payment") => {
    const coins = take(owner, rng.int(1, 3));
    if (coins.length === 0) return;
    const total = coins.reduce((n, c) => n + c.value, 0);
    const amount = Math.round(total * rng.between(0.1, 0.9));
    const to = rng.pick(people);
    const change = total - amount - 1_000;
    if (change < 10_000) return;
    emit(coins.map(part), [part(receive(to, amount)), part(receive(owner, change))], "none", maker);
  };
  for (let i = 0; i < opts.owners * 2; i++) pay(rng.pick(people));

  // Consolidations at the exchanges: customers' deposit addresses (the exchange's own) swept into the hot wallet.
  for (const exchange of exchanges) {
    for (let k = 0; k < 3; k++) {
      const deposits = Array.from({ length: rng.int(20, 90) }, () => ({
        address: fresh(exchange),
        value: rng.logNormal(0.02 * BTC, 1),
      }));
      const total = deposits.reduce((n, d) => n + d.value, 0);
      emit(
        deposits.map((d) => part(d)),
        [part({ address: hot.get(exchange) as string, value: total - 5_000 })],
        "none",
        "consolidation",
      );
    }
  }

  // Employers: one input, 8-30 equal salaries and change.
  for (let e = 0; e < Math.max(3, opts.rounds / 2); e++) {
    const employer = `employer${e}`;
    const salary = Math.round(rng.between(0.005, 0.05) * BTC);
    const staff = rng.shuffle(people).slice(0, rng.int(8, 30));
    emit(
      [part({ address: fresh(employer), value: staff.length * salary * 1.3 })],
      [
        ...staff.map((s) => part(receive(s, salary))),
        part({ address: fresh(employer), value: staff.length * salary * 0.29 }),
      ],
      "none",
      "payroll",
    );
  }

  // Peel chains: one input each hop, a small peel to someone and the rest to the peeler's next address.
  for (let c = 0; c < opts.rounds; c++) {
    const peeler = `peeler${c}`;
    let coin = { address: fresh(peeler), value: rng.between(5, 50) * BTC };
    for (let h = 0; h < rng.int(4, 10); h++) {
      const peel = Math.round(coin.value * rng.between(0.01, 0.1));
      const next = { address: fresh(peeler), value: coin.value - peel - 2_000 };
      emit([part(coin)], [part(receive(rng.pick(people), peel)), part(next)], "none", "peel-chain");
      coin = next;
    }
  }

  // --- CoinJoins. Participants bring coins of their own (topped up by a withdrawal when they have none).
  const coinsOf = (owner: string, k: number, atLeast: number): Coin[] => {
    const have = take(owner, k).filter((c) => c.value >= 20_000);
    const total = have.reduce((n, c) => n + c.value, 0);
    if (total < atLeast)
      have.push({
        address: fresh(owner),
        value: atLeast - total + rng.between(0.001, 0.05) * BTC,
        owner,
        script: "p2wpkh",
      });
    return have;
  };

  // Wasabi 1: 20-60 participants, a base just under 0.1 BTC, change, a coordinator fee; all native segwit.
  const coordinator = "wasabi-coordinator";
  for (let r = 0; r < opts.rounds; r++) {
    const base = Math.round(rng.between(0.0935, 0.0999) * BTC);
    const members = rng.shuffle(people).slice(0, rng.int(20, 60));
    const inputs: UtxoPart[] = [];
    const outputs: UtxoPart[] = [];
    for (const m of members) {
      const coins = coinsOf(m, rng.int(1, 2), base * 1.05);
      const total = coins.reduce((n, c) => n + c.value, 0);
      inputs.push(...coins.map((c) => part({ ...c, script: "p2wpkh" })));
      outputs.push(part(receive(m, base)));
      const change = total - base - Math.round(base * 0.003) - 500;
      if (change > 10_000) outputs.push(part(receive(m, change)));
    }
    outputs.push(part({ address: fresh(coordinator), value: Math.round(base * 0.003 * members.length) }));
    emit(rng.shuffle(inputs), rng.shuffle(outputs), "wasabi-1", "wasabi-1");
  }

  // WabiSabi: 25-150 participants, amounts decomposed greedily into the standard denominations (with a remainder
  // output when it is large enough), inputs and outputs largest first; a fifth of the rounds unordered.
  for (let r = 0; r < opts.rounds; r++) {
    // A quarter of the rounds are a small coordinator's, of 8-20 participants.
    const small = r % 4 === 3;
    const members = rng
      .shuffle(people)
      .slice(0, small ? rng.int(8, 20) : rng.int(25, Math.min(150, people.length)));
    const inputs: UtxoPart[] = [];
    const outputs: UtxoPart[] = [];
    for (const m of members) {
      const coins = coinsOf(m, rng.int(1, 3), rng.logNormal(0.02 * BTC, 1.2));
      inputs.push(...coins.map((c) => part({ ...c, script: c.script === "p2tr" ? "p2tr" : "p2wpkh" })));
      // Greedy over the denominations, at most 8 outputs each; what is left goes to the fees when it is small, as
      // Wasabi's decomposer leaves it, else to a change output.
      const amount = BigInt(Math.round(coins.reduce((n, c) => n + c.value, 0) * 0.995));
      let left = amount;
      let made = 0;
      for (const d of STANDARD) {
        while (left >= d && made < 8) {
          const script = rng.chance(0.3) ? "p2tr" : "p2wpkh";
          outputs.push({ address: receive(m, Number(d), script).address, value: d, script });
          left -= d;
          made++;
        }
      }
      if (left * 20n > amount && left >= 5_000n) {
        outputs.push({ address: receive(m, Number(left)).address, value: left, script: "p2wpkh" });
      }
    }
    const ordered = r % 5 !== 4;
    // One round in ten has a participant who reuses an address for two outputs.
    if (r % 10 === 7 && outputs.length > 2)
      (outputs[1] as UtxoPart).address = (outputs[0] as UtxoPart).address;
    const desc = (a: UtxoPart, b: UtxoPart) => (a.value > b.value ? -1 : a.value < b.value ? 1 : 0);
    emit(
      ordered ? inputs.sort(desc) : rng.shuffle(inputs),
      ordered ? outputs.sort(desc) : rng.shuffle(outputs),
      "wabisabi",
      ordered ? "wabisabi" : "wabisabi-unordered",
    );
  }

  // Whirlpool: tx0s (one wallet's coins into premixes, a fee, an OP_RETURN, change), then mixes of 5-8 with 1-4
  // entrants and remixes of earlier mixes' outputs.
  const pools = [100_000, 1_000_000, 5_000_000, 50_000_000];
  const fees = [5_000, 50_000, 175_000, 1_750_000];
  const premixes: Coin[][] = pools.map(() => []);
  const postmixes: Coin[][] = pools.map(() => []);
  for (let r = 0; r < opts.rounds; r++) {
    const k = r % pools.length;
    const pool = pools[k] as number;
    const owner = rng.pick(people);
    const count = rng.int(2, 20);
    const premix = pool + rng.int(1_000, 100_000);
    const coins = coinsOf(owner, 2, count * premix + (fees[k] as number) + 50_000);
    const total = coins.reduce((n, c) => n + c.value, 0);
    const outs = Array.from({ length: count }, () => receive(owner, premix));
    premixes[k]?.push(...outs);
    emit(
      coins.map(part),
      [
        ...outs.map(part),
        { address: null, value: 0n, script: "op_return" },
        part({ address: fresh("samourai"), value: fees[k] as number }),
        part(receive(owner, total - count * premix - (fees[k] as number) - 2_000)),
      ],
      "whirlpool-tx0",
      "whirlpool-tx0",
    );
  }
  // Seed postmixes (earlier mixes' outputs, owned by their mixers) so that remixes exist from the start.
  for (const [k, pool] of pools.entries()) {
    for (let i = 0; i < 12; i++)
      postmixes[k]?.push({
        address: fresh(`owner${rng.int(0, opts.owners - 1)}`),
        value: pool,
        owner: "",
        script: "p2wpkh",
      });
  }
  for (let r = 0; r < opts.rounds * 2; r++) {
    const k = r % pools.length;
    const pool = pools[k] as number;
    const size = r < opts.rounds ? 5 : rng.int(5, 8);
    const entering = Math.min(rng.int(1, 4), premixes[k]?.length ?? 0, size - 1);
    const remixing = size - entering;
    if (entering < 1 || (postmixes[k]?.length ?? 0) < remixing) continue;
    const ins = [
      ...(premixes[k] as Coin[]).splice(0, entering),
      ...(postmixes[k] as Coin[]).splice(0, remixing),
    ];
    const outs = ins.map((c) => ({
      address: fresh(owners.get(c.address) ?? "unknown"),
      value: pool,
      owner: owners.get(c.address) ?? "",
      script: "p2wpkh" as const,
    }));
    postmixes[k]?.push(...outs);
    emit(rng.shuffle(ins.map(part)), rng.shuffle(outs.map(part)), "whirlpool", "whirlpool");
  }

  // JoinMarket: a taker and 4-10 makers; equal outputs, the makers' change (and the taker's), one script type.
  for (let r = 0; r < opts.rounds; r++) {
    const makers = rng.int(4, 10);
    const members = rng.shuffle(people).slice(0, makers + 1);
    const amount = Math.round(rng.logNormal(0.1 * BTC, 1));
    const inputs: UtxoPart[] = [];
    const outputs: UtxoPart[] = [];
    for (const [i, m] of members.entries()) {
      const coins = coinsOf(m, rng.int(1, 3), amount * rng.between(1.1, 3));
      inputs.push(...coins.map((c) => part({ ...c, script: "p2wpkh" })));
      outputs.push(part(receive(m, amount)));
      const change = coins.reduce((n, c) => n + c.value, 0) - amount - 1_500;
      // The taker sweeps in half the rounds: no change of its own.
      if (!(i === 0 && r % 2 === 0) && change > 27_300) outputs.push(part(receive(m, change)));
    }
    // One round in ten has a maker that reuses its change address as its equal output's.
    if (r % 10 === 3) {
      const twice = outputs.find((o) => o.value !== BigInt(amount));
      const equal = outputs.find((o) => o.value === BigInt(amount));
      if (twice && equal) twice.address = equal.address;
    }
    emit(rng.shuffle(inputs), rng.shuffle(outputs), "joinmarket", "joinmarket");
  }

  // Stonewall (one wallet, two input sets) and Stonewall X2 (two wallets): a payment, a decoy of the same amount,
  // two changes.
  for (let r = 0; r < opts.rounds; r++) {
    const two = r % 2 === 1;
    const a = rng.pick(people);
    const b = two ? rng.pick(people.filter((p) => p !== a)) : a;
    const amount = Math.round(rng.logNormal(0.01 * BTC, 1));
    const setA = coinsOf(a, 1, amount * 2);
    const setB = coinsOf(b, 1, amount * 2);
    const change = (set: Coin[]) => set.reduce((n, c) => n + c.value, 0) - amount - 700;
    emit(
      [...setA, ...setB].map(part),
      rng.shuffle([
        part(receive(rng.pick(people), amount)),
        part(receive(b, amount)),
        part(receive(a, change(setA))),
        part(receive(b, change(setB))),
      ]),
      two ? "stonewall-x2" : "stonewall",
      two ? "stonewall-x2" : "stonewall",
    );
  }

  // Equal splits: an owner spends 3-6 of its own coins to pay as many people the same amount, with change. One
  // owner's transaction in JoinMarket's shape.
  for (let r = 0; r < opts.rounds; r++) {
    const owner = rng.pick(people);
    const k = rng.int(3, 6);
    const amount = Math.round(rng.logNormal(0.01 * BTC, 1));
    const coins = coinsOf(owner, k, amount * k * 1.5);
    while (coins.length < k) coins.push({ address: fresh(owner), value: amount, owner, script: "p2wpkh" });
    const total = coins.reduce((n, c) => n + c.value, 0);
    const payees = Array.from({ length: k }, () => part(receive(rng.pick(people), amount)));
    const changes = rng.chance(0.5) ? k - 1 : k;
    const spare = total - k * amount - 2_000;
    const change = Array.from({ length: changes }, (_, i) =>
      part(receive(owner, Math.round((spare / changes) * (0.5 + i / changes)))),
    );
    emit(
      coins.map((c) => part({ ...c, script: "p2wpkh" })),
      rng.shuffle([...payees, ...change]),
      "none",
      "equal-split",
    );
  }

  // And more ordinary life after the rounds: owners spend what the rounds paid them.
  for (let i = 0; i < opts.owners * 2; i++) pay(rng.pick(people), "payment-after");
  return { txs, owners, services };
}
