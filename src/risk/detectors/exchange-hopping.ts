// exchange_hopping (docs/risk-model.md): funds pass through deposit or hot wallets of at least 2 distinct exchanges
// (label `exchange`) within 72 hours, without resting more than 72 hours at any step.
// As implemented, for an address A (not a service, not a contract): a hop is a withdrawal from exchange X to A
// followed within 72 hours by a deposit into a different exchange Y carrying 80-125% of it (the same funds; token
// units or USD, graph/amounts.ts ratioBounds), made by A itself or by the last of up to 3 of A's own wallets the
// funds passed through on the way (own-wallets.ts: fresh, fed by the previous wallet only, forwarding at least 90%
// within 24 hours; every leg carrying 80-125% of the withdrawal). The hops and the deposits into X that preceded
// them within 72 hours form bursts (no gap over 72 hours); a burst touching >= 2 exchanges is reported, with A as
// its subject and its own wallets as actors. Exchanges are told apart by the label's name before ":" (a deposit
// address and a hot wallet of one exchange are one exchange). A single deposit, or deposits into two exchanges
// without funds coming out of one of them, is left alone; so are payments to a merchant or a friend who then
// deposits (not fresh, or fed by others too).
//
// Cost: from each withdrawal, a depth-first search of at most 1 + maxOwnWallets transfers, each step reading only
// the transfers inside the remaining time window (binary search on the chronological adjacency) that carry the
// withdrawal's amount, and entering only own wallets (fresh and single-source, memoised per address): a busy
// address is never entered, and the branching past the subject is one or two transfers in practice.
import type { Detector, Finding } from "../findings.ts";
import { duration, usd } from "../format.ts";
import { ratioBounds } from "../graph/amounts.ts";
import { exchangeEntity, exchangeName, isExchange, isService } from "../graph/classify.ts";
import { compareEdges, firstAtOrAfter, type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";
import { OwnWallets } from "./own-wallets.ts";

export interface ExchangeHoppingParams {
  minExchanges: number;
  /** longest rest of the funds at any step, hours: from a withdrawal to the deposit into the next exchange */
  maxRestHours: number;
  /** the deposit into the next exchange carries between these fractions of the withdrawal (the same funds) */
  minCarriedFraction: number;
  maxCarriedFraction: number;
  /**
   * how many own wallets the funds may pass through between two exchanges: hoppers put one to three fresh wallets
   * between a withdrawal and the next deposit; a longer chain of forwarding wallets is a peel chain's business, and
   * every further wallet makes it likelier that one of them is someone else's
   */
  maxOwnWallets: number;
  /**
   * an own wallet forwards at least this fraction of what it had received (gas and rounding stay behind); one that
   * keeps more is spending or saving, a life of its own
   */
  ownForwardFraction: number;
  /** an own wallet forwards within this many hours of the funds' arrival: a pass-through, not a wallet in use */
  ownMaxHoldHours: number;
  /**
   * transfers worth less than this (USD), and zero-value ones, do not make a second source of an own wallet: every
   * active address receives address-poisoning dust from strangers
   */
  ownDustUsd: number;
}

export const DEFAULT_EXCHANGE_HOPPING_PARAMS: ExchangeHoppingParams = {
  minExchanges: 2,
  maxRestHours: 72,
  minCarriedFraction: 0.8,
  maxCarriedFraction: 1.25,
  maxOwnWallets: 3,
  ownForwardFraction: 0.9,
  ownMaxHoldHours: 24,
  ownDustUsd: 1,
};

interface Hop {
  withdrawal: GraphEdge;
  deposit: GraphEdge;
  before?: GraphEdge;
  /** the transfers from the subject through its own wallets, before the deposit (none for a direct deposit) */
  legs: GraphEdge[];
  /** the own wallets, in the order the funds passed through them */
  own: string[];
}

type Path = Pick<Hop, "deposit" | "legs" | "own">;

export const detectExchangeHopping: Detector<ExchangeHoppingParams> = (graph, params) =>
  sortFindings(findExchangeHopping(indexGraph(graph), params));

export function findExchangeHopping(index: GraphIndex, params: ExchangeHoppingParams): Finding[] {
  const rest = params.maxRestHours * 3_600;
  const entity = (address: string) => exchangeEntity(index.node(address));
  const own = new OwnWallets(index, params);
  const findings: Finding[] = [];
  for (const node of index.nodes) {
    if (isService(node) || node.isContract) continue;
    const a = node.address;
    const withdrawals = index.inOf(a).filter((e) => e.from !== a && isExchange(index.node(e.from)));
    if (withdrawals.length === 0) continue;
    const out = index.outOf(a);
    // The subject's transfers that can start a hop's way on: into an exchange, or into a wallet that may be its
    // own. Filtered once, so that a busy subject's payments are not looked at again for every withdrawal.
    const starts = out.filter((e) => e.to !== a && (isExchange(index.node(e.to)) || own.canReceive(e)));
    if (starts.length === 0) continue;
    const hops: Hop[] = [];
    for (const w of withdrawals) {
      const path = shortestPath(index, own, params, w, starts);
      if (!path) continue;
      const x = entity(w.from);
      let before: GraphEdge | undefined;
      for (let k = firstAtOrAfter(out, w.at - rest); k < out.length; k++) {
        const b = out[k] as GraphEdge;
        if (b.at > w.at) break;
        if (b.to !== a && isExchange(index.node(b.to)) && entity(b.to) === x) before = b;
      }
      hops.push(before ? { withdrawal: w, before, ...path } : { withdrawal: w, ...path });
    }
    for (const burst of bursts(hops, rest)) {
      const exchanges = new Map<string, string>();
      for (const e of burst.edges) {
        const ex = isExchange(index.node(e.to)) ? e.to : isExchange(index.node(e.from)) ? e.from : undefined;
        if (ex !== undefined && !exchanges.has(entity(ex)))
          exchanges.set(entity(ex), exchangeName(index.node(ex)));
      }
      if (exchanges.size >= params.minExchanges) {
        findings.push(toFinding(a, burst, [...exchanges.values()], params));
      }
    }
  }
  return findings;
}

/**
 * The way withdrawal `w`'s funds reached a different exchange within the rest time: a deposit by the subject
 * itself, or through up to `maxOwnWallets` own wallets, every transfer carrying 80-125% of `w`. The path through
 * the fewest own wallets wins, then the earliest deposit (canonical order), so that the choice is deterministic.
 */
function shortestPath(
  index: GraphIndex,
  own: OwnWallets,
  p: ExchangeHoppingParams,
  w: GraphEdge,
  starts: readonly GraphEdge[],
): Path | undefined {
  const subject = w.to;
  const from = exchangeEntity(index.node(w.from));
  const deadline = w.at + p.maxRestHours * 3_600;
  let best: Path | undefined;
  const carries = (e: GraphEdge) => {
    const r = ratioBounds(w, e);
    return r !== null && r.hi >= p.minCarriedFraction && r.lo <= p.maxCarriedFraction;
  };
  // `holder` holds the funds since `into` arrived; `legs` and `wallets` are the path so far (own wallets only);
  // the subject's transfers on are `starts` (its payments to others cannot start a hop).
  const visit = (holder: string, into: GraphEdge, legs: GraphEdge[], wallets: string[]) => {
    const out = holder === subject ? starts : index.outOf(holder);
    for (let k = firstAtOrAfter(out, into.at); k < out.length; k++) {
      const e = out[k] as GraphEdge;
      if (e.at > deadline) break;
      if (e.to === holder || !carries(e)) continue;
      if (wallets.length > 0 && !own.forwards(into, e)) continue;
      const to = index.node(e.to);
      if (isExchange(to)) {
        if (exchangeEntity(to) === from) continue;
        if (!best || wallets.length < best.own.length) best = { deposit: e, legs, own: wallets };
        else if (wallets.length === best.own.length && compareEdges(e, best.deposit) < 0)
          best = { deposit: e, legs, own: wallets };
        continue;
      }
      // A further wallet makes the path longer than one already found: no need to look.
      if (wallets.length >= p.maxOwnWallets || (best && best.own.length <= wallets.length)) continue;
      if (e.to === subject || wallets.includes(e.to) || !own.canReceive(e)) continue;
      visit(e.to, e, [...legs, e], [...wallets, e.to]);
    }
  };
  visit(subject, w, [], []);
  return best;
}

/** Groups the hops' transfers into bursts with no gap over `rest` seconds. */
function bursts(hops: Hop[], rest: number): { edges: GraphEdge[]; hops: Hop[] }[] {
  const sorted = [...hops].sort((x, y) => compareEdges(x.before ?? x.withdrawal, y.before ?? y.withdrawal));
  const out: { edges: GraphEdge[]; hops: Hop[] }[] = [];
  let current: { edges: GraphEdge[]; hops: Hop[]; end: number } | undefined;
  for (const h of sorted) {
    const start = (h.before ?? h.withdrawal).at;
    if (!current || start - current.end > rest) {
      current = { edges: [], hops: [], end: start };
      out.push(current);
    }
    current.hops.push(h);
    for (const e of [h.before, h.withdrawal, ...h.legs, h.deposit])
      if (e && !current.edges.includes(e)) current.edges.push(e);
    current.end = Math.max(current.end, h.deposit.at);
  }
  return out.map(({ edges, hops }) => ({ edges: edges.sort(compareEdges), hops }));
}

function toFinding(
  subject: string,
  burst: { edges: GraphEdge[]; hops: Hop[] },
  names: string[],
  p: ExchangeHoppingParams,
) {
  const first = burst.edges[0] as GraphEdge;
  const last = burst.edges.at(-1) as GraphEdge;
  const moved = Math.max(...burst.hops.map((h) => h.deposit.usd ?? 0));
  const longestRest = Math.max(...burst.hops.map((h) => h.deposit.at - h.withdrawal.at));
  const confirmed = burst.hops.some((h) => h.before);
  const confidence = 0.6 + 0.1 * Math.min(2, names.length - p.minExchanges) + (confirmed ? 0.1 : 0);
  const ownWallets = [...new Set(burst.hops.flatMap((h) => h.own))];
  const n = ownWallets.length;
  const through =
    n === 0
      ? ""
      : `, the funds passing through ${n} wallet${n === 1 ? "" : "s"} of its own on the way (fresh, funded only by the previous ` +
        `wallet, each forwarding at least ${Math.round(p.ownForwardFraction * 100)}% within ` +
        `${p.ownMaxHoldHours} hours)`;
  return makeFinding("exchange_hopping", {
    confidence: Math.min(0.9, confidence),
    subject,
    wallets: burst.edges.flatMap((e) => [e.from, e.to]),
    actors: ownWallets,
    edges: burst.edges,
    usdAmount: moved,
    thresholds: {
      exchanges: names.length,
      minExchanges: p.minExchanges,
      maxRestHours: p.maxRestHours,
      minCarriedFraction: p.minCarriedFraction,
      maxCarriedFraction: p.maxCarriedFraction,
      // Only when own wallets decided it; named own… (not max…) as they are the own-wallet rule's, not the hop's.
      ...(n > 0
        ? {
            ownWallets: n,
            ownWalletsAtMost: p.maxOwnWallets,
            ownForwardFraction: p.ownForwardFraction,
            ownMaxHoldHours: p.ownMaxHoldHours,
          }
        : {}),
    },
    message:
      `Moved ${usd(moved)} through ${names.length} exchanges (${names.join(", ")}) within ` +
      `${duration(last.at - first.at)}, depositing into the next exchange at most ${duration(longestRest)} ` +
      `after withdrawing from the previous one${through}.`,
  });
}
