// A verdict's words in the reader's language, from its structured data (what drives the score, the exposure entries,
// the findings with their thresholds), never by translating the risk core's English sentences: the reason, each
// pattern's description, and the words of the risk model (levels, severities, categories, directions) from the one
// message catalog (src/messages). The Spanish sentences follow the English ones of the risk core
// (src/risk/scoring/reason.ts, contributions.ts, the detectors' messages) in what they say; figures are written as
// the English ones are (USD 12,345; 85%), so that the wallet report's answer check (src/narratives/check-answer.ts)
// reads them. English answers keep the risk core's own sentences (the API's contract). Pure.
import { CATALOG, type Lang, type MessageId, THRESHOLD_NAME_IDS, translate } from "../messages/index.ts";
import { exchangeNameOfLabel, shortAddress } from "../risk/index.ts";
import { layerExposure, layerFinding } from "./layer-finding.ts";
import type { CompletedLayer } from "./layered/index.ts";
import type { VerdictExposure, VerdictFinding, WalletVerdict } from "./verdict.ts";

/** What a reason is written from: a verdict's score and evidence. */
type ReasonInput = Pick<
  WalletVerdict,
  "score" | "drivers" | "exposure" | "findings" | "totals" | "maxDepth" | "newestTransfersOnly"
>;

/** A catalog word of a code ("pattern.peel_chain"), or the code itself, spaced, for one the catalog lacks. */
function wordOf(lang: Lang, prefix: string, code: string): string {
  const id = `${prefix}.${code}`;
  return isId(id) ? translate(lang, id) : code.replace(/_/g, " ");
}
const isId = (id: string): id is MessageId => Object.hasOwn(CATALOG.en, id);

/** A risk level as a word in a sentence ("alto"). */
export const levelWord = (lang: Lang, level: string) => wordOf(lang, "level", level).toLocaleLowerCase(lang);
export const severityWord = (lang: Lang, severity: string) => wordOf(lang, "severity", severity);
/** A pattern's name, as a noun ("cadena de pelado"). */
export const patternWord = (lang: Lang, pattern: string) => wordOf(lang, "pattern", pattern);
/** A label category, as a noun phrase ("mezclador"). */
export const categoryWord = (lang: Lang, category: string) => wordOf(lang, "category", category);
export const directionWord = (lang: Lang, direction: string) => wordOf(lang, "direction", direction);
/** An alert's cause ("Persona en una lista"). */
export const causeWord = (lang: Lang, cause: string) => wordOf(lang, "cause", cause);

export const levelEs = (level: string) => levelWord("es", level);
export const severityEs = (severity: string) => severityWord("es", severity);
export const patternEs = (pattern: string) => patternWord("es", pattern);
export const categoryEs = (category: string) => categoryWord("es", category);
export const directionEs = (direction: string) => directionWord("es", direction);

/** "una dirección sancionada", "una dirección de mezclador". */
function addressOf(category: string): string {
  const id = `address.${category}`;
  return isId(id)
    ? translate("es", id)
    : translate("es", "address.other", { category: category.replace(/_/g, " ") });
}

const thresholdEs = (name: string) => {
  const id = THRESHOLD_NAME_IDS[name];
  return id ? translate("es", id) : name;
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** As the risk core writes figures: 1,234,568; below 100, two decimals ("12.50"). */
function num(n: number): string {
  const digits = Math.abs(n) < 100 && !Number.isInteger(n) ? 2 : 0;
  const [whole = "0", frac] = Math.abs(n).toFixed(digits).split(".");
  return `${n < 0 ? "-" : ""}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${frac ? `.${frac}` : ""}`;
}
const usd = (n: number) => `USD ${num(n)}`;
const pct = (fraction: number) => `${Math.round(fraction * 100)}%`;
const count = (n: number, one: string, many: string) => `${num(n)} ${n === 1 ? one : many}`;
const saltos = (n: number) => count(n, "salto", "saltos");
/** The exchange's name of a label ("Binance: hot wallet" -> "Binance"), none without a label. */
const exchangeNameOf = (label: string | undefined) => (label ? exchangeNameOfLabel(label) || label : []);
const short = shortAddress;
const numberOf = (v: number | string | undefined) => (typeof v === "number" ? v : undefined);

/** The labels the verdict holds of addresses (those at the far end of its exposure paths), by address. */
export function labelsOfVerdict(v: Pick<WalletVerdict, "exposure">): Map<string, string> {
  const labels = new Map<string, string>();
  for (const e of v.exposure)
    for (const c of e.counterparties) if (c.label !== undefined) labels.set(c.address, c.label);
  return labels;
}

/**
 * A pattern's finding in Spanish, from its thresholds and evidence (the detector's message says the same);
 * `labels`: names of the addresses it involves, where the verdict knows them (the mixer's).
 */
export function findingEs(
  f: Pick<VerdictFinding, "pattern" | "subject" | "txs" | "usdAmount" | "thresholds" | "wallets">,
  labels: ReadonlyMap<string, string> = new Map(),
): string {
  const t = f.thresholds;
  const named = [...new Set(f.wallets.flatMap((w) => labels.get(w) ?? []))].slice(0, 2);
  const names = named.length > 0 ? ` (${named.join(", ")})` : "";
  const n = f.txs.length;
  const tx = `${n} ${n === 1 ? "transacción" : "transacciones"}`;
  switch (f.pattern) {
    case "mixing": {
      const hops = numberOf(t.hops) ?? 1;
      const sent = t.direction === "outgoing";
      const fixed =
        t.fixedDenominations === "yes"
          ? ", cada una por exactamente una de las denominaciones fijas del mezclador"
          : "";
      if (hops <= 1)
        return sent
          ? `Envió ${usd(f.usdAmount)} en ${tx} directamente a un mezclador${names}${fixed}.`
          : `Recibió ${usd(f.usdAmount)} en ${tx} directamente de un mezclador${names}.`;
      const traced = numberOf(t.tracedFraction);
      const share = traced !== undefined ? `el ${pct(traced)} de los fondos` : "fondos";
      return sent
        ? `Envió fondos a intermediarios; ${share} (${usd(f.usdAmount)}) se trazan hasta un mezclador${names} a ${saltos(hops)}${fixed}.`
        : `Recibió fondos de intermediarios; ${share} (${usd(f.usdAmount)}) se trazan desde un mezclador${names} a ${saltos(hops)}.`;
    }
    case "peel_chain": {
      const hops = numberOf(t.hops);
      return (
        `Cadena de pelado${hops !== undefined ? ` de ${saltos(hops)}` : ""} que comienza en ${short(f.subject)}: ` +
        `entraron ${usd(f.usdAmount)}; en cada salto, la mayor parte pasó a una dirección nueva y se separó una ` +
        `porción menor (${tx}).`
      );
    }
    case "structuring": {
      const sent = t.direction === "sent";
      const threshold = numberOf(t.thresholdUsd);
      const name = typeof t.thresholdName === "string" ? thresholdEs(t.thresholdName) : "";
      const band =
        numberOf(t.lowerFraction) !== undefined && numberOf(t.upperFraction) !== undefined
          ? `, cada una de entre el ${pct(t.lowerFraction as number)} y el ${pct(t.upperFraction as number)} del umbral`
          : ", cada una justo por debajo del umbral";
      const days = numberOf(t.windowDays);
      const owned = numberOf(t.ownerWallets);
      const owner =
        owned !== undefined
          ? ` Enviadas desde ${owned} billeteras de un mismo titular, ${short(f.subject)}: cada una financiada solo ` +
            "por él, nueva al recibir los fondos y vaciada en pocas transferencias."
          : "";
      return (
        `${sent ? "Envió" : "Recibió"} ${tx}${band}${threshold !== undefined ? ` de ${usd(threshold)}` : ""}` +
        `${name ? ` (${name})` : ""}${days !== undefined ? ` en ${days} días o menos` : ""}, ` +
        `${usd(f.usdAmount)} en total.${owner}`
      );
    }
    case "round_tripping": {
      const hops = numberOf(t.hops);
      const returned = numberOf(t.returned);
      return (
        `Fondos que salieron de ${short(f.subject)} volvieron a esa dirección` +
        `${returned !== undefined ? ` (el ${pct(returned)})` : ""}${hops !== undefined ? ` tras ${saltos(hops)}` : ""}; ` +
        `${usd(f.usdAmount)} enviados en total.`
      );
    }
    case "wash_trading": {
      const token = typeof t.token === "string" ? ` ${t.token}` : "";
      const net = numberOf(t.netFraction);
      const other = f.wallets.find((w) => w !== f.subject);
      return (
        `Envió${token} de ida y vuelta${other ? ` con ${short(other)}` : ""} (${tx})` +
        `${net !== undefined ? `, con un flujo neto del ${pct(net)}` : ""} sobre ${usd(f.usdAmount)} brutos.`
      );
    }
    case "mass_wallet_creation": {
      const wallets = numberOf(t.wallets) ?? f.wallets.length;
      const hours = numberOf(t.windowHours);
      return (
        `Primer financiador de ${wallets} direcciones nuevas${hours !== undefined ? ` en ${hours} horas o menos` : ""}, ` +
        `${usd(f.usdAmount)} en total.`
      );
    }
    case "exchange_hopping": {
      const exchanges = numberOf(t.exchanges);
      const seen = [...new Set(f.wallets.flatMap((w) => exchangeNameOf(labels.get(w))))];
      const exchangeNames = seen.length > 0 ? ` (${seen.join(", ")})` : "";
      const rest = numberOf(t.maxRestHours);
      return (
        `Movió ${usd(f.usdAmount)} a través de ${exchanges !== undefined ? `${exchanges} exchanges` : "varios exchanges"}${exchangeNames}` +
        `${rest !== undefined ? `, depositando en el siguiente a lo sumo ${rest} horas después de retirar del anterior` : ""}.`
      );
    }
    default:
      return `${capital(patternEs(f.pattern))}: ${usd(f.usdAmount)} en ${tx}.`;
  }
}

/** What the Spanish sentence reads of an exposure entry: of another address of its cluster, the address and size. */
export type SpokenExposure = Omit<VerdictExposure, "sameOwnerAs"> & {
  sameOwnerAs?: Pick<NonNullable<VerdictExposure["sameOwnerAs"]>, "address" | "clusterSize">;
};

/** An exposure entry in Spanish (the risk core's exposureText says the same). */
export function exposureEs(e: SpokenExposure): string {
  if (e.sameOwnerAs) {
    // Another address of the root's cluster: whose exposure it is, and why it is the root's owner's.
    const { sameOwnerAs: owner, ...own } = e;
    const whose =
      `Del mismo dueño que ${short(owner.address)} por entradas comunes (un clúster de ${owner.clusterSize} ` +
      "direcciones gastadas juntas)";
    const said = exposureEs(own);
    if (e.direction === "self")
      return `${whose}, que está etiquetada como ${said.split(" está etiquetada como ")[1] ?? categoryEs(e.category)}`;
    return `${whose}, que ${said.charAt(0).toLowerCase()}${said.slice(1)}`;
  }
  const who = e.counterparties
    .slice(0, 2)
    .map((c) => c.label ?? short(c.address))
    .join(", ");
  const more = e.counterparties.length > 2 ? ` y ${e.counterparties.length - 2} más` : "";
  const kind = addressOf(e.category);
  if (e.direction === "self")
    return `La dirección misma está etiquetada como ${categoryEs(e.category)} (${who})`;
  const verb = e.direction === "incoming" ? "Recibió" : "Envió";
  const prep = e.direction === "incoming" ? "de" : "a";
  const share = `${pct(e.share)} de sus fondos ${e.direction === "incoming" ? "entrantes" : "salientes"}`;
  // Dust says so first, as the English reason does (docs/decisions/0030): a gift it did not ask for, not a dealing.
  const what = e.unsolicited ? `Recibió polvo no solicitado: ${usd(e.usd)}` : `${verb} ${usd(e.usd)}`;
  const spent = e.unsolicited ? ", que no gastó" : "";
  if (e.hops <= 1) return `${what} (${share}) directamente ${prep} ${kind} (${who}${more})${spent}`;
  const via = e.via.slice(0, 2).map(short).join(", ") + (e.via.length > 2 ? ", ..." : "");
  return `${what} (${share}) ${prep} ${kind} a ${saltos(e.hops)} (${who}${more}) a través de ${via}${spent}`;
}

/** A pattern as a driver of the score, by the address's part in it. */
function patternDriverEs(
  f: VerdictFinding,
  root: string,
  direct: boolean,
  labels: ReadonlyMap<string, string>,
): string {
  const name = capital(patternEs(f.pattern));
  const text = findingEs(f, labels).replace(/\.$/, "");
  if (direct) {
    // A description that starts with the pattern's name ("Cadena de pelado de 7 saltos...") is not prefixed by it.
    if (text.startsWith(name)) return f.subject === root ? text : `${text} (con ${short(f.subject)})`;
    return f.subject === root ? `${name}: ${text}` : `${name} con ${short(f.subject)}: ${text}`;
  }
  if (f.wallets.includes(root))
    return `Contraparte de ${short(f.subject)} en su ${patternEs(f.pattern)}: ${text}`;
  return `${name} de ${short(f.subject)}, cerca de esta dirección: ${text}`;
}

/** The drivers of a verdict that did not keep them (a layer): its scoring exposure, then its strongest patterns. */
function driversOf(
  v: ReasonInput,
  root: string,
  labels: ReadonlyMap<string, string>,
): { text: string; discounted: boolean }[] {
  const out: { text: string; discounted: boolean }[] = [];
  const exposure = v.exposure.find((e) => e.drivesScore);
  if (exposure) out.push({ text: exposureEs(exposure), discounted: false });
  const rank = (s: string) => ["low", "medium", "high", "critical"].indexOf(s);
  const seen = new Set<string>();
  for (const f of [...v.findings].sort(
    (a, b) => rank(b.severity) - rank(a.severity) || (b.confidence ?? 0) - (a.confidence ?? 0),
  )) {
    if (seen.has(f.pattern)) continue;
    seen.add(f.pattern);
    const direct = f.actors ? f.actors.includes(root) : f.subject === root;
    out.push({ text: patternDriverEs(f, root, direct, labels), discounted: false });
  }
  return out;
}

/**
 * The verdict's reason in Spanish: its two main drivers with their figures, how many more there are, and the
 * exchange discount (as the risk core's riskReason); or the absence of indicators with the address's totals.
 */
export function reasonEs(v: ReasonInput, root: string): string {
  if (v.score === null) return translate("es", "reason.withheld");
  const labels = labelsOfVerdict(v);
  const drivers =
    v.drivers === null
      ? driversOf(v, root, labels)
      : v.drivers.flatMap((d) => {
          if (d.kind === "exposure") {
            const e = v.exposure[d.ref];
            return e ? [{ text: exposureEs(e), discounted: false }] : [];
          }
          const f = v.findings[d.ref];
          return f ? [{ text: patternDriverEs(f, root, d.direct, labels), discounted: d.discounted }] : [];
        });
  let text: string;
  if (drivers.length === 0) {
    const t = v.totals;
    text = t
      ? translate("es", "reason.none", {
          transfers: t.incomingTransfers + t.outgoingTransfers,
          incoming: usd(t.incomingUsd),
          outgoing: usd(t.outgoingUsd),
          counterparties: t.counterparties,
          hops: t.maxHops,
        })
      : translate("es", "reason.none_within", { hops: v.maxDepth });
  } else {
    const [first, second] = drivers;
    const extra = drivers.length - 2;
    const tail = [
      extra > 0 ? translate("es", "reason.more", { count: extra }) : "",
      drivers.some((d) => d.discounted) ? translate("es", "reason.discounted") : "",
    ]
      .filter(Boolean)
      .join("; ");
    const sentences = [first, second].flatMap((d) => (d ? [d.text] : []));
    const last = sentences.length - 1;
    if (tail) sentences[last] = `${sentences[last]} (${tail})`;
    text = sentences.map((s) => `${s}.`).join(" ");
  }
  if (v.newestTransfersOnly !== null)
    text += ` ${translate("es", "reason.newest_only", { count: v.newestTransfersOnly })}`;
  return text;
}

/**
 * A completed layer with the texts the service writes in Spanish: its reason (from its exposure and the patterns
 * the root takes part in, as an investigation's verdict reads a layer) and each pattern's description. Codes,
 * figures and the graph are the layer's own.
 */
export function layerInSpanish(layer: CompletedLayer): CompletedLayer {
  const root = layer.cumulativeGraph.rootAddress;
  const findings = layer.detectedPatterns
    .filter((p) => p.evidence.wallets.includes(root) || p.subject === root)
    .map(layerFinding);
  const reason = reasonEs(
    {
      score: layer.riskScore,
      drivers: null,
      exposure: (layer.exposure ?? []).map((e) => ({
        ...layerExposure(e),
        ...(e.unsolicited ? { unsolicited: true } : {}),
      })),
      findings,
      totals: null,
      maxDepth: layer.layer + 1,
      newestTransfersOnly: null,
    },
    root,
  );
  const labels = new Map<string, string>();
  for (const node of Object.values(layer.cumulativeGraph.nodes))
    if (node.label !== undefined && node.label !== null) labels.set(node.address, node.label);
  type LayerPattern = CompletedLayer["detectedPatterns"][number];
  const described = (p: LayerPattern): LayerPattern => ({
    ...p,
    description: findingEs(layerFinding(p), labels),
  });
  return {
    ...layer,
    riskReason: reason,
    detectedPatterns: layer.detectedPatterns.map(described),
    newPatterns: layer.newPatterns.map(described),
    removedPatterns: layer.removedPatterns.map(described),
  };
}
