// The detection benchmark's world (`npm run eval`, docs/eval.md): a year of ordinary traffic (population.ts)
// with every pattern of docs/risk-model.md woven into it (./cases), and the list of what to scan and what to expect there.
//
// What a case is: an address to scan (its `subject`) and the truth about one pattern there.
//  - positive: the pattern was injected there, inside the definition in docs/risk-model.md, with parameters drawn across the
//    whole range the definition allows (each generator rotates through its variants: hop counts, thresholds,
//    directions, sizes...); the pattern must be reported for the subject;
//  - near miss (positive: false): a "false friend" (docs/risk-model.md), just outside the definition (one hop, one
//    transfer, a few hours or a few percent short, or a labelled service); the pattern must not be reported;
//  - background (pattern "background", positive: false): a plain user of the population, half of them drawn from
//    users who traded with case wallets; no pattern may be reported for it;
//  - sanctions_exposure: the wallets 1, 2 and 3 hops from a sanctioned address, scored for the level ordering;
//  - dusted (positive: false): a plain user far from the risky side and the cases, sent a few dollars of dust by
//    sanctioned and mixer addresses after its last payment (dusting.ts); scored for false alerts only.
// Besides the hubs of the population, a few busy unlabelled addresses with thousands of counterparties (crowds.ts).
// Everything derives from the seed: the same options give the same world, transfer for transfer.
import { Rng } from "../../src/platform/rng.ts";
import { DAY, World } from "../../src/worlds/index.ts";
import { accidentalStructurers } from "./accidents.ts";
import {
  conversionExposure,
  conversionLookalike,
  ownerStructuring,
  swappedPeelChain,
} from "./cases/conversions.ts";
import { exchangeHoppingNearMiss, exchangeHoppingPositive } from "./cases/exchange-hopping.ts";
import { massWalletCreationNearMiss, massWalletCreationPositive } from "./cases/mass-wallet-creation.ts";
import { mixingNearMiss, mixingPositive } from "./cases/mixing.ts";
import { peelChainNearMiss, peelChainPositive } from "./cases/peel-chain.ts";
import { roundTrippingNearMiss, roundTrippingPositive } from "./cases/round-tripping.ts";
import { sanctionsChain } from "./cases/sanctions.ts";
import { structuringNearMiss, structuringPositive } from "./cases/structuring.ts";
import { washTradingNearMiss, washTradingPositive } from "./cases/wash-trading.ts";
import type { CaseContext, CaseGenerator } from "./context.ts";
import { buildCrowds } from "./crowds.ts";
import { distancesToRisk } from "./distance.ts";
import { dustUsers } from "./dusting.ts";
import { buildBenchmarkServices, buildPopulation } from "./population.ts";

/** Each pattern's positive and near-miss generators. */
export { RISKY_SHARE_CAP } from "./hubs.ts";
export const BENCHMARK_GENERATORS: Record<string, { positive: CaseGenerator; nearMiss: CaseGenerator }> = {
  mixing: { positive: mixingPositive, nearMiss: mixingNearMiss },
  peel_chain: { positive: peelChainPositive, nearMiss: peelChainNearMiss },
  structuring: { positive: structuringPositive, nearMiss: structuringNearMiss },
  round_tripping: { positive: roundTrippingPositive, nearMiss: roundTrippingNearMiss },
  mass_wallet_creation: { positive: massWalletCreationPositive, nearMiss: massWalletCreationNearMiss },
  wash_trading: { positive: washTradingPositive, nearMiss: washTradingNearMiss },
  exchange_hopping: { positive: exchangeHoppingPositive, nearMiss: exchangeHoppingNearMiss },
};

export interface BenchmarkWorldOptions {
  seed: number;
  /** positives per pattern, and as many near misses */
  perPattern: number;
  /** ordinary users */
  users: number;
  /** their everyday transfers (onboarding, salaries, sweeps and the cases come on top) */
  transfers: number;
  /** busy unlabelled hubs (default 12) and their transfers with users (default: 35 % of `transfers`) */
  hubs?: number;
  hubTransfers?: number;
  /** plain background users to scan as negatives for every pattern (default: a fifth of the users, at most 300) */
  background?: number;
  /** sanctions chains (default: half of perPattern, at least 1) */
  sanctionsChains?: number;
  /** busy unlabelled neighbourhoods (crowds.ts; default 4), the busiest with 4 counterparties per user */
  crowds?: number;
  /** ordinary users dusted by sanctioned and mixer addresses (dusting.ts; default: one in 25 users, at most 60) */
  dusted?: number;
}

export const BENCHMARK_START = Date.UTC(2024, 0, 1) / 1000;
const DAYS = 366;

export function defaultBackground(users: number): number {
  return Math.min(300, Math.floor(users / 5));
}

export function defaultDusted(users: number): number {
  return Math.min(60, Math.floor(users / 25));
}

export function benchmarkWorld(opts: BenchmarkWorldOptions): World {
  const world = new World(`vigia-benchmark-${opts.seed}`);
  const root = new Rng(opts.seed);
  // Independent streams: the population does not shift when the cases change, nor the cases with the sample.
  const populationRng = root.fork();
  const caseRng = root.fork();
  const sampleRng = root.fork();
  const dustRng = root.fork();
  const crowdRng = root.fork();
  const services = buildBenchmarkServices(world);
  const pop = buildPopulation(world, services, populationRng, {
    users: opts.users,
    transfers: opts.transfers,
    hubs: opts.hubs ?? 12,
    hubTransfers: opts.hubTransfers ?? Math.round(opts.transfers * 0.35),
    start: BENCHMARK_START,
    days: DAYS,
  });
  buildCrowds(world, services, crowdRng, pop.users, {
    count: opts.crowds ?? 4,
    busiest: 4 * opts.users,
    userShare: 0.2,
    start: BENCHMARK_START,
    end: BENCHMARK_START + DAYS * DAY,
  });
  const ctx: CaseContext = { world, pop, services };
  // Cases start anywhere from day 70 to day 300 (wallets are onboarded up to 60 days before, lives go on after),
  // overlapping each other and the background.
  const when = () => BENCHMARK_START + Math.floor(caseRng.between(70 * DAY, 300 * DAY));
  for (const [pattern, gen] of Object.entries(BENCHMARK_GENERATORS)) {
    for (let i = 0; i < opts.perPattern; i++) {
      gen.positive(ctx, caseRng.fork(), `${pattern}-pos-${i}`, when(), i);
      gen.nearMiss(ctx, caseRng.fork(), `${pattern}-neg-${i}`, when(), i);
    }
  }
  const chains = opts.sanctionsChains ?? Math.max(1, Math.floor(opts.perPattern / 2));
  for (let i = 0; i < chains; i++) sanctionsChain(ctx, caseRng.fork(), `sanctions-${i}`, when());
  // Value that changes form or is spread over an owner's wallets, and their look-alikes (cases/conversions.ts).
  for (let i = 0; i < opts.perPattern; i++) {
    swappedPeelChain(ctx, caseRng.fork(), `conv-peel-${i}`, when(), i);
    ownerStructuring(ctx, caseRng.fork(), `conv-owner-${i}`, when(), i);
    conversionExposure(ctx, caseRng.fork(), `conv-exposure-${i}`, when(), i);
    conversionLookalike(ctx, caseRng.fork(), `conv-lookalike-${i}`, when(), i);
  }

  // The background sample: plain users (in no case's structure), half of them neighbours of case wallets.
  const wanted = opts.background ?? defaultBackground(opts.users);
  const subjects = new Set(world.cases.map((c) => c.subject));
  const candidates = pop.users.filter(
    (u) => !pop.involved.has(u.account.address) && !subjects.has(u.account.address),
  );
  // Users whose ordinary amounts happen to meet structuring's definition are instances of it, not negatives.
  const accidental = accidentalStructurers(world, new Set(candidates.map((u) => u.account.address)));
  const ordinary = candidates.filter((u) => !accidental.has(u.account.address));
  // Dusted users: ordinary users far from the risky side (dust aside) and from the cases (no transfer with a case's
  // wallet), so that any alert on them is the dust's.
  const farFromRisk = distancesToRisk(world, 4);
  const caseWallet = /^(?:[a-z_]+-(?:pos|neg)-\d+|sanctions-\d+|conv-[a-z]+-\d+)\./;
  const nearCases = new Set<string>();
  const nameOf = new Map([...world.accounts.values()].map((a) => [a.address, a.name]));
  for (const t of world.transfers) {
    if (caseWallet.test(nameOf.get(t.from) ?? "")) nearCases.add(t.to);
    if (caseWallet.test(nameOf.get(t.to) ?? "")) nearCases.add(t.from);
  }
  const dusted = dustUsers(
    ctx,
    dustRng,
    ordinary.filter(
      (u) =>
        (farFromRisk.get(u.account.address) ?? Number.POSITIVE_INFINITY) > 3 &&
        !nearCases.has(u.account.address),
    ),
    opts.dusted ?? defaultDusted(opts.users),
    BENCHMARK_START + DAYS * DAY,
  );
  const dustedSet = new Set(dusted.map((u) => u.account.address));
  const plain = ordinary.filter((u) => !dustedSet.has(u.account.address));
  const neighbours = sampleRng.shuffle(plain.filter((u) => pop.neighbours.has(u.account.address)));
  const others = sampleRng.shuffle(plain.filter((u) => !pop.neighbours.has(u.account.address)));
  // Half and half where both groups have enough; the other group fills in where one runs short.
  const fromOthers = Math.min(others.length, Math.max(Math.floor(wanted / 2), wanted - neighbours.length));
  const fromNeighbours = Math.min(neighbours.length, wanted - fromOthers);
  const sample = [
    ...neighbours.slice(0, fromNeighbours).map((u) => ({ u, variant: "neighbour" })),
    ...others.slice(0, fromOthers).map((u) => ({ u, variant: "random" })),
  ];
  const distances = distancesToRisk(world, 4);
  for (const [i, { u, variant }] of sample.entries()) {
    const distance = distances.get(u.account.address);
    world.addCase({
      id: `background-${i}`,
      pattern: "background",
      positive: false,
      subject: u.account.address,
      involved: [u.account.address],
      variant,
      note: variant === "neighbour" ? "plain user who traded with case wallets" : "plain user",
      ...(distance !== undefined ? { distance } : {}),
    });
  }

  return world;
}
