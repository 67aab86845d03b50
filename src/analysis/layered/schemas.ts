// TypeBox schemas of the layered-analysis routes (docs/api.md,
// "Investigations and layered analyses"). They document the answers in OpenAPI; a completed layer is sent as its stored JSON text.
import { type Static, Type } from "@sinclair/typebox";
import { CoverageSchema } from "../../ledger/index.ts";
import { StringEnum } from "../../platform/http/schemas.ts";
import { NODE_TYPES, PATTERNS, RISK_LEVELS, SEVERITIES } from "../../risk/index.ts";

const Severity = StringEnum(SEVERITIES);
const Level = StringEnum(RISK_LEVELS);

export const LayerPatternSchema = Type.Object({
  patternType: StringEnum(PATTERNS),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  severity: Severity,
  description: Type.String(),
  id: Type.String({ description: "identity across layers: pattern and subject" }),
  subject: Type.String(),
  evidence: Type.Object({
    wallets: Type.Array(Type.String()),
    txHashes: Type.Array(Type.String()),
    usdAmount: Type.Number(),
    thresholds: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])),
  }),
});

const NodeSchema = Type.Object({
  address: Type.String(),
  type: StringEnum(NODE_TYPES, {
    description: "eoa, contract, exchange, mixer, bridge, defi, sanctioned, illicit or unknown",
  }),
  depth: Type.Integer({ description: "hops from the root" }),
  label: Type.Optional(Type.String()),
  labelSource: Type.Optional(
    Type.String({
      description:
        "where the label comes from: the label set it was imported from (e.g. an OFAC SDN import, a TagPack); absent for an inferred label and in layers stored before it was added",
    }),
  ),
  category: Type.Optional(Type.String()),
  inferred: Type.Optional(
    Type.Literal(true, {
      description:
        "the label and type are inferred, not from a label set: an exchange deposit address (it forwards what it receives to that exchange's labelled wallets)",
    }),
  ),
});

const ConversionLegSchema = Type.Object({
  symbol: Type.String(),
  value: Type.String({ description: "raw amount in the token's smallest unit" }),
  decimals: Type.Integer(),
  usd: Type.Union([Type.Number(), Type.Null()]),
});

const EdgeSchema = Type.Object({
  id: Type.String({
    description:
      "txHash:logIndex (-1 for a transaction's native value); txHash:conversion for a conversion's edge (see conversion); bridge:protocol:key for a bridge crossing (see bridge)",
  }),
  from: Type.String(),
  to: Type.String(),
  value: Type.String({ description: "raw amount in the token's smallest unit" }),
  token: Type.String({ description: "'native' or the token contract" }),
  symbol: Type.String(),
  decimals: Type.Integer(),
  usd: Type.Union([Type.Number(), Type.Null()]),
  txHash: Type.String(),
  timestamp: Type.String({ format: "date-time" }),
  conversion: Type.Optional(
    Type.Object(
      {
        via: Type.Array(Type.String(), { description: "the protocols by name, or the unlisted contracts" }),
        given: Type.Array(ConversionLegSchema, { description: "what the payer (from) gave, on net" }),
        received: Type.Array(ConversionLegSchema, {
          description: "what the recipient (to) received, on net",
        }),
      },
      {
        description:
          "set on the edge that stands for a conversion: the transaction's transfers through a protocol's contracts (a DEX swap) read as one movement of value from payer to recipient (docs/risk-model.md, Conversions); the transaction's own transfers are in the graph too",
      },
    ),
  ),
  bridge: Type.Optional(
    Type.Object(
      {
        protocol: Type.String({ description: '"Across", "Circle CCTP" or "LayerZero OFT"' }),
        fromChainId: Type.Integer({ description: "the chain the value was deposited on" }),
        toChainId: Type.Integer({ description: "the chain it was delivered on (txHash is the delivery's)" }),
        depositTx: Type.String({ description: "the deposit's transaction, on fromChainId" }),
        given: ConversionLegSchema,
      },
      {
        description:
          'set on the edge that stands for a bridge crossing: value deposited by `from` on one chain and delivered to `to` on another (docs/risk-model.md, Bridges); an address of another chain than the analysis is written "address@chainId"',
      },
    ),
  ),
});

const Nodes = Type.Record(Type.String(), NodeSchema);

export const GraphSchema = Type.Object({
  rootAddress: Type.String(),
  nodes: Nodes,
  edges: Type.Array(EdgeSchema),
  metadata: Type.Object({
    totalNodes: Type.Integer(),
    totalEdges: Type.Integer(),
    truncated: Type.Object({
      nodes: Type.Boolean(),
      edges: Type.Boolean(),
      time: Type.Boolean(),
      degree: Type.Boolean(),
    }),
  }),
});

/**
 * One exposure of the root (src/risk/exposure.ts) as a path to follow in the graph: from the labelled addresses at
 * its far end (`counterparties`) through the intermediaries (`via`) to the root, by the transactions on the
 * shortest such paths. The viewer draws it like a pattern's evidence.
 */
export const LayerExposureSchema = Type.Object({
  category: Type.String({
    description: "the labelled addresses' category: sanctioned, illicit, mixer, blocklisted, exchange, ...",
  }),
  direction: StringEnum(["incoming", "outgoing", "self"], {
    description:
      "incoming: funds came from them to the root; outgoing: the root's funds went to them; self: the root itself is labelled so",
  }),
  hops: Type.Integer({
    minimum: 0,
    description: "0 for the root's own label, 1 for a direct counterparty, ...",
  }),
  usd: Type.Number({ description: "USD of the root's funds traced to or from them at this hop count" }),
  share: Type.Number({ minimum: 0, maximum: 1, description: "usd as a share of the root's volume that way" }),
  counterparties: Type.Array(Type.Object({ address: Type.String(), label: Type.Optional(Type.String()) }), {
    description: "the labelled addresses at the far end of the paths",
  }),
  via: Type.Array(Type.String(), { description: "the intermediaries on the paths, sorted" }),
  txHashes: Type.Array(Type.String(), { description: "the transactions on the paths, sorted" }),
  drivesScore: Type.Boolean({ description: "the score's exposure points come from this entry" }),
  sameOwnerAs: Type.Optional(
    Type.Object(
      {
        address: Type.String(),
        clusterId: Type.String(),
        clusterSize: Type.Integer({ minimum: 2 }),
        joinedBy: Type.Array(Type.String(), {
          description: "the transactions that spent the root's cluster's addresses together (the first ones)",
        }),
      },
      {
        description:
          "Bitcoin: the exposure is this address's, of the root's address cluster (one owner's by common inputs); the figures are its own",
      },
    ),
  ),
  unsolicited: Type.Optional(
    Type.Literal(true, {
      description:
        "unsolicited dust: a small, negligible receipt the root did not spend onward; shown, but it scores at most low (docs/risk-model.md)",
    }),
  ),
});

const CompletedLayerSchema = Type.Object({
  analysisId: Type.String({ format: "uuid" }),
  layer: Type.Integer(),
  status: Type.Literal("completed"),
  totalLayers: Type.Integer(),
  riskScore: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: "null when the verdict is withheld (errorCode no_data): the data it rests on is not current",
  }),
  riskLevel: Type.Union([Level, Type.Null()], { description: "null when the verdict is withheld" }),
  riskReason: Type.String(),
  errorCode: Type.Optional(
    Type.Literal("no_data", {
      description: "the layer found nothing and the data it rests on is not current (see coverage)",
    }),
  ),
  coverage: Type.Optional(
    Type.Composite([CoverageSchema], {
      description: "what the layer's verdict rests on (absent from layers stored before it was added)",
    }),
  ),
  exposure: Type.Optional(
    Type.Array(LayerExposureSchema, {
      description:
        "the root's exposure after this layer, riskiest category first (absent from layers stored before it was added)",
    }),
  ),
  isProvisional: Type.Boolean(),
  detectedPatterns: Type.Array(LayerPatternSchema),
  newPatterns: Type.Array(LayerPatternSchema),
  removedPatterns: Type.Array(LayerPatternSchema),
  cumulativeGraph: GraphSchema,
  newNodes: Nodes,
  newEdges: Type.Array(EdgeSchema),
  layerMetadata: Type.Object({
    processingTimeMs: Type.Number(),
    nodeCount: Type.Integer(),
    edgeCount: Type.Integer(),
    newNodeCount: Type.Integer(),
    newEdgeCount: Type.Integer(),
    errorCount: Type.Integer(),
    patternDetectionTimeMs: Type.Number(),
    timestamp: Type.String({ format: "date-time" }),
  }),
});

const ShortLayerSchema = Type.Object({
  analysisId: Type.String({ format: "uuid" }),
  layer: Type.Integer(),
  status: StringEnum(["pending", "failed"]),
  totalLayers: Type.Integer(),
  error: Type.Optional(Type.String()),
});

export const LayerResultSchema = Type.Union([CompletedLayerSchema, ShortLayerSchema]);

// The layer result's types, derived from the schemas above (the one truth of their shape).
export type LayerNode = Static<typeof NodeSchema>;
export type LayerExposure = Static<typeof LayerExposureSchema>;
export type LayerEdge = Static<typeof EdgeSchema>;
export type LayerGraph = Static<typeof GraphSchema>;
export type CompletedLayer = Static<typeof CompletedLayerSchema>;
/** A layer not processed yet (or never to be, once its analysis failed): the short form. */
export type ShortLayer = Static<typeof ShortLayerSchema>;
export type AnalysisProgressBody = Static<typeof ProgressSchema>;

export const ProgressSchema = Type.Object({
  analysisId: Type.String({ format: "uuid" }),
  status: StringEnum(["pending", "running", "completed", "failed"]),
  completedLayers: Type.Integer(),
  maxDepth: Type.Integer(),
  incremental: Type.Boolean(),
  riskScore: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: "the latest layer's score (0 before the first); null when that layer withheld its verdict",
  }),
  patternsDetected: Type.Integer(),
  startedAt: Type.String({ format: "date-time" }),
  error: Type.Optional(Type.String()),
});

export const AnalysisParams = Type.Object({ analysisId: Type.String({ minLength: 1, maxLength: 100 }) });
export const LayerParams = Type.Object({
  analysisId: Type.String({ minLength: 1, maxLength: 100 }),
  layer: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
});
