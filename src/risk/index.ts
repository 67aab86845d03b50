// Vigía's risk core: pure functions from a transaction graph to findings, exposure and an explainable score.
// No I/O of any kind (no database, network, file system or clock): time comes from the graph's transfers.
//
// Main entry points
//   analyseGraph(graph, root, config?) -> RiskAnalysis
//       { root, score 0-100 (integer), level, reason, suspiciousActivity, patterns, findings, contributions,
//         exposure, modelVersion, configFingerprint, graph }. `findings` are every pattern found in the graph
//       (also about other addresses); `patterns` are the patterns this root performs (it is among a finding's
//       `actors`), for scan results; `contributions` is the breakdown of the score (each with a `ref` into
//       exposure.entries or findings; the points add up to the score before the 0-100 cap).
//   analyseRoots(graph, config?) -> RiskAnalysis[]     every root of a multi-root graph, detectors run once.
//   quickCheck(graph, root, config?) -> QuickRiskResult   GET /risk/quick (docs/api.md, "Risk analysis"),
//       for a depth-1 graph; toQuickRiskResult(analysis) gives the same shape from any analysis.
//   toLayerPatterns(findings) -> LayerPattern[] and findingKey(finding): incremental analysis layers
//       (detectedPatterns / newPatterns / removedPatterns).
//   exposureOf(graph, root, params?) -> Exposure         exposure alone.
//   detect<Pattern>(graph, params) -> Finding[]          each detector alone, with DEFAULT_<PATTERN>_PARAMS.
//   detectCoinJoin(tx) and Clusterer (utxo/): Bitcoin's CoinJoin fingerprints and address clusters gated by them
//       (docs/decisions/0051-bitcoin-clusters.md); not yet fed by any Bitcoin data.
//   scoreRoot(index, root, findings, resolveRiskConfig(config)) -> RiskAnalysis   scoring from known findings.
//
// Configuration (RiskConfig, every field optional): `patterns` (detectors to run), `detectors` (per-pattern
// parameter overrides), `extraThresholds` (the enabled jurisdictions' reporting thresholds in USD, converted by
// the caller at the day's rate; added to structuring's USD 1,000 / 3,000 / 10,000), `exposure`, `scoring`.
//
// Determinism: the same graph (nodes and edges in any order) and configuration always give the same result.
// Every result records SCORING_MODEL_VERSION. Levels: minimal 0-19, low 20-39, medium 40-59, high 60-79,
// critical 80-100 (levelFor).

export {
  DEFAULT_EXCHANGE_HOPPING_PARAMS,
  detectExchangeHopping,
  type ExchangeHoppingParams,
} from "./detectors/exchange-hopping.ts";
export {
  DEFAULT_MASS_WALLET_CREATION_PARAMS,
  detectMassWalletCreation,
  type MassWalletCreationParams,
} from "./detectors/mass-wallet-creation.ts";
export {
  DEFAULT_MIXING_PARAMS,
  detectMixing,
  type KnownPool,
  type MixingParams,
} from "./detectors/mixing.ts";
export { DEFAULT_PEEL_CHAIN_PARAMS, detectPeelChain, type PeelChainParams } from "./detectors/peel-chain.ts";
export {
  DEFAULT_DETECTOR_PARAMS,
  type DetectorOverrides,
  type DetectorParams,
  resolveDetectorParams,
  runDetectors,
} from "./detectors/registry.ts";
export {
  DEFAULT_ROUND_TRIPPING_PARAMS,
  detectRoundTripping,
  type RoundTrippingParams,
} from "./detectors/round-tripping.ts";
export {
  DEFAULT_STRUCTURING_PARAMS,
  detectStructuring,
  type ReportingThreshold,
  type StructuringParams,
} from "./detectors/structuring.ts";
export {
  DEFAULT_WASH_TRADING_PARAMS,
  detectWashTrading,
  type WashTradingParams,
} from "./detectors/wash-trading.ts";
export {
  computeExposure,
  DEFAULT_EXPOSURE_PARAMS,
  type Exposure,
  type ExposureCounterparty,
  type ExposureDirection,
  type ExposureEntry,
  type ExposureParams,
  exposureOf,
  type SameOwner,
} from "./exposure.ts";
export {
  type Detector,
  type Finding,
  PATTERN_SEVERITY,
  PATTERNS,
  type PatternName,
  SEVERITIES,
  type Severity,
} from "./findings.ts";
export { chainKey, isForeignKey, splitChainKey } from "./graph/chain-keys.ts";
export { CATEGORY_ORDER, categoryOf, SERVICE_CATEGORIES, shortAddress } from "./graph/classify.ts";
export {
  type Conversion,
  type ConversionParams,
  DEFAULT_CONVERSION_PARAMS,
  readConversions,
  type UnsupportedConversion,
} from "./graph/conversions.ts";
export { exchangeKeyOfLabel, exchangeNameOfLabel } from "./graph/exchange-name.ts";
export { compareEdges, conversionsOf, type GraphIndex, indexGraph } from "./graph/graph-index.ts";
export {
  PROTOCOL_REGISTRY_VERSION,
  type ProtocolContract,
  protocolContract,
  registeredProtocolContracts,
} from "./graph/protocols.ts";
export {
  type BridgeVia,
  type ConversionLeg,
  type ConversionVia,
  type GraphEdge,
  type GraphNode,
  LABEL_CATEGORIES,
  type LabelCategory,
  NO_TRUNCATION,
  NODE_TYPE_OF_CATEGORY,
  NODE_TYPES,
  type NodeType,
  type RootCluster,
  SERVICE_TYPES,
  TERMINAL_TYPES,
  type Truncation,
  type TxGraph,
} from "./graph/types.ts";
export {
  findingKey,
  type LayerPattern,
  type QuickRiskPattern,
  type QuickRiskResult,
  quickCheck,
  toLayerPatterns,
  toQuickRiskResult,
} from "./present.ts";
export {
  analyseGraph,
  analyseRoots,
  analyseRootsIndexed,
  type ResolvedRiskConfig,
  type RiskAnalysis,
  type RiskConfig,
  resolveRiskConfig,
  scoreRoot,
} from "./scoring/analyse.ts";
export type { ScoreContribution } from "./scoring/contributions.ts";
export { compareLevels, LEVEL_FLOORS, levelFor, RISK_LEVELS, type RiskLevel } from "./scoring/levels.ts";
export { DEFAULT_SCORING_PARAMS, SCORING_MODEL_VERSION, type ScoringParams } from "./scoring/params.ts";
export {
  type ClusterChange,
  Clusterer,
  type ClusterParams,
  type ClusterStep,
  type ClusterView,
  type CoinJoinKind,
  type CoinJoinVerdict,
  DEFAULT_CLUSTER_PARAMS,
  detectCoinJoin,
  type ExcludedCoinJoin,
  type ScriptKind,
  type StoredCluster,
  type UtxoPart,
  type UtxoTx,
  WABISABI_DENOMINATIONS,
} from "./utxo/index.ts";
