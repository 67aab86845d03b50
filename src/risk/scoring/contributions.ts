// What each risk driver adds to the score (docs/risk-model.md, "From findings and exposure to a score"; docs/decisions/0011):
// - exposure: the address's own label (sanctioned or illicit: 100); direct (1 hop) exposure to sanctioned or
//   illicit, in either direction: critical, within directBand by share (93-100); other direct exposure: category
//   weight * shareFactor; indirect exposure (the share is what haircut taint traces): funds received from sanctioned
//   or illicit at criticalTracedShare or more: critical, within the band of its hop count (87-92 at 2 hops, 84-86 at
//   3, ...); otherwise category weight * hopDecay^(hops - 1) * outgoingWeight (funds sent) * shareFactor, kept under
//   directFloor. shareFactor = sqrt(min(1, share / fullShare)). Only the strongest exposure counts. Unsolicited
//   (dust) receipts (dust.ts, docs/decisions/0030) score at most dustMaxPoints: low, whatever the category.
// - patterns: severity points * confidence, per pattern its strongest finding, times indirectPatternFactor when the
//   address is only a counterparty in the finding (full weight when the address is an actor), and
//   nearbyPatternFactor^d for a finding it has no part in whose nearest actor is d hops away (0 by default: see
//   params.ts); patterns add up, the strongest
//   fully and each next one at nextPatternWeight times the previous one's weight (1, 0.5, 0.25...). An address
//   labelled exchange has its pattern points discounted by exchangeDiscount (80%), never its exposure.
import type { ExposureEntry, SameOwner } from "../exposure.ts";
import { type Finding, PATTERNS, type PatternName } from "../findings.ts";
import { hops, pct, usd } from "../format.ts";
import { shortAddress } from "../graph/classify.ts";
import type { ScoringParams } from "./params.ts";

export interface ScoreContribution {
  kind: "exposure" | "pattern";
  /** the exposure's category, or the pattern's name */
  name: string;
  /** points added to the score (before the 0-100 cap) */
  points: number;
  /** one clause with the figures, used by riskReason */
  text: string;
  /** index into the result's exposure.entries (kind exposure) or findings (kind pattern) */
  ref: number;
  /** the finding involves the address itself (kind pattern) */
  direct: boolean;
  /** the exchange discount was applied */
  discounted: boolean;
}

export function exposurePoints(entry: ExposureEntry, p: ScoringParams): number {
  const points = weightedPoints(entry, p);
  return entry.unsolicited ? Math.min(points, p.dustMaxPoints) : points;
}

function weightedPoints(entry: ExposureEntry, p: ScoringParams): number {
  const weight = p.categoryWeights[entry.category] ?? 0;
  if (entry.direction === "self") return weight;
  const floor = p.floorCategories.includes(entry.category);
  if (entry.hops <= 1)
    return floor ? within(p.directBand, entry.share) : weight * shareFactor(entry.share, p);
  const decay = p.hopDecay ** (entry.hops - 1);
  if (floor && entry.direction === "incoming" && entry.share >= p.criticalTracedShare) {
    const band = p.tracedCriticalBands[Math.min(entry.hops, p.tracedCriticalBands.length + 1) - 2];
    const above = (entry.share - p.criticalTracedShare) / (1 - p.criticalTracedShare);
    return band ? within(band, above) : p.directFloor;
  }
  const direction = entry.direction === "outgoing" ? p.outgoingWeight : 1;
  return Math.min(p.directFloor - 1, weight * decay * direction * shareFactor(entry.share, p));
}

/** The point of a band at a fraction (0-1) of the way up. */
function within([lo, hi]: [number, number], fraction: number): number {
  return lo + (hi - lo) * Math.min(1, Math.max(0, fraction));
}

/** How much of a category's weight a share of the address's funds earns: its square root, up to fullShare. */
function shareFactor(share: number, p: ScoringParams): number {
  return Math.sqrt(Math.min(1, Math.max(0, share) / p.fullShare));
}

/** The strongest exposure, as a contribution (undefined when no exposure scores). */
export function exposureContribution(
  entries: readonly ExposureEntry[],
  p: ScoringParams,
): ScoreContribution | undefined {
  let best: { i: number; points: number } | undefined;
  entries.forEach((entry, i) => {
    const points = exposurePoints(entry, p);
    if (points > 0 && (!best || points > best.points)) best = { i, points };
  });
  if (!best) return undefined;
  const entry = entries[best.i] as ExposureEntry;
  return {
    kind: "exposure",
    name: entry.category,
    points: best.points,
    text: exposureText(entry),
    ref: best.i,
    direct: entry.hops <= 1,
    discounted: false,
  };
}

export function exposureText(e: ExposureEntry): string {
  if (e.sameOwner) return sameOwnerText(e, e.sameOwner);
  const who = e.counterparties
    .slice(0, 2)
    .map((c) => c.label ?? shortAddress(c.address))
    .join(", ");
  const more = e.counterparties.length > 2 ? ` and ${e.counterparties.length - 2} more` : "";
  const kind = `${article(e.category)} ${e.category.replace(/_/g, " ")} address`;
  if (e.direction === "self")
    return `The address itself is labelled ${e.category.replace(/_/g, " ")} (${who})`;
  const verb = e.direction === "incoming" ? "Received" : "Sent";
  const prep = e.direction === "incoming" ? "from" : "to";
  const share = `${pct(e.share)} of its ${e.direction} funds`;
  // Dust says so first: the figure a reader sees is then read as what it is, not as a dealing.
  const what = e.unsolicited ? `Received unsolicited dust: ${usd(e.usd)}` : `${verb} ${usd(e.usd)}`;
  const spent = e.unsolicited ? ", not spent onward" : "";
  const swapped =
    (e.conversions ? `, converted via ${e.conversions.slice(0, 2).join(", ")}` : "") +
    (e.bridges ? `, bridged via ${e.bridges.slice(0, 2).join("; ")}` : "");
  if (e.hops === 1) return `${what} (${share}) directly ${prep} ${kind} (${who}${more})${swapped}${spent}`;
  const via = e.via.slice(0, 2).map(shortAddress).join(", ") + (e.via.length > 2 ? ", ..." : "");
  return `${what} (${share}) ${prep} ${kind} ${hops(e.hops)} away (${who}${more}) via ${via}${swapped}${spent}`;
}

/** A cluster address's exposure, lent to the root (cluster-exposure.ts): whose it is, and why it is the root's. */
function sameOwnerText(e: ExposureEntry, owner: SameOwner): string {
  const { sameOwner: _, ...own } = e;
  const whose =
    `Same owner as ${shortAddress(owner.address)} by common inputs (a cluster of ${owner.clusterSize} ` +
    "addresses spent together)";
  const said = exposureText(own);
  if (e.direction === "self")
    return `${whose}, which is labelled ${said.split(" is labelled ")[1] ?? e.category}`;
  return `${whose}, which ${said.charAt(0).toLowerCase()}${said.slice(1)}`;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

/** How a finding relates to the address: its actor, a counterparty in it, or a finding whose actors are d hops away. */
export type Role = { kind: "actor" } | { kind: "counterparty" } | { kind: "nearby"; distance: number };

export function roleOf(f: Finding, root: string, distances: ReadonlyMap<string, number>): Role | undefined {
  if (f.actors.includes(root)) return { kind: "actor" };
  if (f.wallets.includes(root)) return { kind: "counterparty" };
  // How far the nearest actor is (the one doing it), else the nearest wallet involved.
  const nearest = (list: string[]) =>
    Math.min(...list.map((w) => distances.get(w) ?? Number.POSITIVE_INFINITY));
  const distance = Number.isFinite(nearest(f.actors)) ? nearest(f.actors) : nearest(f.wallets);
  return Number.isFinite(distance) ? { kind: "nearby", distance } : undefined;
}

/**
 * Per pattern, the strongest finding's points for this address, strongest pattern first: full weight when the
 * address is an actor of the finding, indirectPatternFactor when it is only a counterparty in it (the payee of
 * a structurer), nearbyPatternFactor^d for a finding whose nearest actor is d hops away.
 */
export function patternContributions(
  findings: readonly Finding[],
  root: string,
  distances: ReadonlyMap<string, number>,
  isExchange: boolean,
  p: ScoringParams,
  /** findings that are not the address's doing (unsolicited dust, dust.ts): no points */
  ignore: ReadonlySet<Finding> = new Set(),
): ScoreContribution[] {
  const best = new Map<PatternName, ScoreContribution>();
  findings.forEach((f, i) => {
    if (ignore.has(f)) return;
    const role = roleOf(f, root, distances);
    if (!role) return;
    const proximity =
      role.kind === "actor"
        ? 1
        : role.kind === "counterparty"
          ? p.indirectPatternFactor
          : p.nearbyPatternFactor ** role.distance;
    const raw = p.severityPoints[f.severity] * f.confidence * proximity;
    const points = isExchange ? raw * (1 - p.exchangeDiscount) : raw;
    const seen = best.get(f.pattern);
    if (points <= 0 || (seen && seen.points >= points)) return;
    best.set(f.pattern, {
      kind: "pattern",
      name: f.pattern,
      points,
      text: patternText(f, root, role),
      ref: i,
      direct: role.kind === "actor",
      discounted: isExchange,
    });
  });
  const strongestFirst = [...best.values()].sort(
    (a, b) =>
      b.points - a.points ||
      PATTERNS.indexOf(a.name as PatternName) - PATTERNS.indexOf(b.name as PatternName),
  );
  return strongestFirst.map((c, i) => ({ ...c, points: c.points * p.nextPatternWeight ** i }));
}

function patternText(f: Finding, root: string, role: Role): string {
  const message = stripPeriod(f.message);
  const name = f.pattern.replace(/_/g, " ");
  const subject = shortAddress(f.subject);
  if (role.kind === "actor") {
    if (message.toLowerCase().startsWith(name))
      return f.subject === root ? message : `${message} (with ${subject})`;
    return f.subject === root
      ? `${patternTitle(f.pattern)}: ${message}`
      : `${patternTitle(f.pattern)} with ${subject}: ${message}`;
  }
  if (role.kind === "counterparty") return `Counterparty of ${subject} in its ${name}: ${message}`;
  return `${patternTitle(f.pattern)} by ${subject} (${hops(role.distance)} away): ${message}`;
}

function patternTitle(pattern: PatternName): string {
  const words = pattern.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function stripPeriod(s: string): string {
  return s.endsWith(".") ? s.slice(0, -1) : s;
}
