// How each node type looks, shared by the graph and its legend. Every type has its own shape as well as its own
// colour, so the graph still reads for colour-blind officers and in a greyscale printout; the colours are
// Okabe-Ito-like hues with enough contrast on white.
import { t, tOptional } from "./i18n.ts";
import type { NodeType } from "./types.ts";

export type NodeShape =
  | "ellipse"
  | "round-rectangle"
  | "round-diamond"
  | "round-triangle"
  | "round-hexagon"
  | "round-octagon"
  | "round-tag"
  | "rhomboid"
  | "barrel";

export interface TypeLook {
  color: string;
  shape: NodeShape;
  /** the legend's wording (English; the page reads typeName) */
  name: string;
  /** what it means for the officer (English; the page reads typeHint) */
  hint: string;
}

/** A node type's name in the reader's language (the catalog's `viewer.type.<type>`). */
export const typeName = (type: NodeType | "inferred"): string =>
  tOptional(`viewer.type.${type}`) ?? t("viewer.type.unknown");
/** What a node type means, in the reader's language. */
export const typeHint = (type: NodeType | "inferred"): string =>
  tOptional(`viewer.type.${type}.hint`) ?? t("viewer.type.unknown.hint");

export const LOOK: Record<NodeType, TypeLook> = {
  sanctioned: {
    color: "#c5221f",
    shape: "round-octagon",
    name: "Sanctioned",
    hint: "on a sanctions list (e.g. OFAC SDN)",
  },
  illicit: {
    color: "#8e2a8a",
    shape: "round-tag",
    name: "Illicit",
    hint: "scam, hack, phishing or frozen by an issuer",
  },
  mixer: { color: "#e8710a", shape: "round-hexagon", name: "Mixer", hint: "hides the origin of funds" },
  bridge: { color: "#b08800", shape: "round-diamond", name: "Bridge", hint: "moves funds to another chain" },
  exchange: {
    color: "#1a73e8",
    shape: "round-rectangle",
    name: "Exchange",
    hint: "a labelled exchange or its deposit address",
  },
  defi: { color: "#188038", shape: "round-triangle", name: "DeFi", hint: "a DeFi protocol" },
  contract: { color: "#12808a", shape: "barrel", name: "Contract", hint: "a smart contract without a label" },
  eoa: { color: "#5f6b7a", shape: "ellipse", name: "Wallet (EOA)", hint: "an ordinary account" },
  unknown: {
    color: "#b3bac2",
    shape: "rhomboid",
    name: "Unknown",
    hint: "never seen in the data the service holds",
  },
};

/** Legend order: riskiest first. */
export const LEGEND_ORDER: NodeType[] = [
  "sanctioned",
  "illicit",
  "mixer",
  "bridge",
  "exchange",
  "defi",
  "contract",
  "eoa",
  "unknown",
];

/** Types whose nodes colour the edges that reach them. */
export const RISKY_TYPES: ReadonlySet<NodeType> = new Set(["sanctioned", "illicit", "mixer"]);

/** SVG path data of a shape inside a 16x16 box, for the legend swatches. */
export function swatchPath(shape: NodeShape): string {
  switch (shape) {
    case "ellipse":
      return "M8 1a7 7 0 1 0 0.01 0Z";
    case "round-rectangle":
      return "M3 2h10a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H3a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Z";
    case "round-diamond":
      return "M8 1l7 7-7 7-7-7Z";
    case "round-triangle":
      return "M8 1.5l7 13H1Z";
    case "round-hexagon":
      return "M4.5 2h7l3.5 6-3.5 6h-7L1 8Z";
    case "round-octagon":
      return "M5 1h6l4 4v6l-4 4H5l-4-4V5Z";
    case "round-tag":
      return "M1 3h9l5 5-5 5H1Z";
    case "rhomboid":
      return "M4 2h11l-3 12H1Z";
    case "barrel":
      return "M3 2h10q2 6 0 12H3q-2-6 0-12Z";
  }
}
