// The seven detectors by pattern name, their default parameters, and running a chosen set of them over one graph
// index (built once) with a deterministic output order.
import { type Finding, PATTERNS, type PatternName } from "../findings.ts";
import type { GraphIndex } from "../graph/graph-index.ts";
import {
  DEFAULT_EXCHANGE_HOPPING_PARAMS,
  type ExchangeHoppingParams,
  findExchangeHopping,
} from "./exchange-hopping.ts";
import { sortFindings } from "./finding.ts";
import {
  DEFAULT_MASS_WALLET_CREATION_PARAMS,
  findMassWalletCreation,
  type MassWalletCreationParams,
} from "./mass-wallet-creation.ts";
import { DEFAULT_MIXING_PARAMS, findMixing, type MixingParams } from "./mixing.ts";
import { DEFAULT_PEEL_CHAIN_PARAMS, findPeelChains, type PeelChainParams } from "./peel-chain.ts";
import { DEFAULT_ROUND_TRIPPING_PARAMS, findRoundTrips, type RoundTrippingParams } from "./round-tripping.ts";
import { DEFAULT_STRUCTURING_PARAMS, findStructuring, type StructuringParams } from "./structuring.ts";
import { DEFAULT_WASH_TRADING_PARAMS, findWashTrading, type WashTradingParams } from "./wash-trading.ts";

export interface DetectorParams {
  mixing: MixingParams;
  peel_chain: PeelChainParams;
  structuring: StructuringParams;
  round_tripping: RoundTrippingParams;
  mass_wallet_creation: MassWalletCreationParams;
  wash_trading: WashTradingParams;
  exchange_hopping: ExchangeHoppingParams;
}

/** Per pattern, the parameters to change; the others keep their defaults. */
export type DetectorOverrides = { [P in PatternName]?: Partial<DetectorParams[P]> };

export const DEFAULT_DETECTOR_PARAMS: DetectorParams = {
  mixing: DEFAULT_MIXING_PARAMS,
  peel_chain: DEFAULT_PEEL_CHAIN_PARAMS,
  structuring: DEFAULT_STRUCTURING_PARAMS,
  round_tripping: DEFAULT_ROUND_TRIPPING_PARAMS,
  mass_wallet_creation: DEFAULT_MASS_WALLET_CREATION_PARAMS,
  wash_trading: DEFAULT_WASH_TRADING_PARAMS,
  exchange_hopping: DEFAULT_EXCHANGE_HOPPING_PARAMS,
};

type IndexDetectors = { [P in PatternName]: (index: GraphIndex, params: DetectorParams[P]) => Finding[] };

const BY_PATTERN: IndexDetectors = {
  mixing: findMixing,
  peel_chain: findPeelChains,
  structuring: findStructuring,
  round_tripping: findRoundTrips,
  mass_wallet_creation: findMassWalletCreation,
  wash_trading: findWashTrading,
  exchange_hopping: findExchangeHopping,
};

export function resolveDetectorParams(overrides: DetectorOverrides = {}): DetectorParams {
  return {
    mixing: { ...DEFAULT_MIXING_PARAMS, ...overrides.mixing },
    peel_chain: { ...DEFAULT_PEEL_CHAIN_PARAMS, ...overrides.peel_chain },
    structuring: { ...DEFAULT_STRUCTURING_PARAMS, ...overrides.structuring },
    round_tripping: { ...DEFAULT_ROUND_TRIPPING_PARAMS, ...overrides.round_tripping },
    mass_wallet_creation: { ...DEFAULT_MASS_WALLET_CREATION_PARAMS, ...overrides.mass_wallet_creation },
    wash_trading: { ...DEFAULT_WASH_TRADING_PARAMS, ...overrides.wash_trading },
    exchange_hopping: { ...DEFAULT_EXCHANGE_HOPPING_PARAMS, ...overrides.exchange_hopping },
  };
}

function run<P extends PatternName>(pattern: P, index: GraphIndex, params: DetectorParams): Finding[] {
  return BY_PATTERN[pattern](index, params[pattern]);
}

/** Runs the chosen detectors (all seven by default) and returns their findings in canonical order. */
export function runDetectors(
  index: GraphIndex,
  params: DetectorParams = DEFAULT_DETECTOR_PARAMS,
  patterns: readonly PatternName[] = PATTERNS,
): Finding[] {
  const chosen = PATTERNS.filter((p) => patterns.includes(p));
  return sortFindings(chosen.flatMap((p) => run(p, index, params)));
}
