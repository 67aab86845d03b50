// The risk core's configuration: what callers may override (RiskConfig), the whole of it with the defaults filled in
// (ResolvedRiskConfig), and its fingerprint, recorded with every result. Both are worked out once per configuration
// object, not once per address scored.
//
// A project's jurisdictions add reporting thresholds converted to USD at the rates of the days of each graph's
// transfers (src/analysis/thresholds.ts): every quick check then brings a configuration of its own that differs from
// the last only in those thresholds. Resolving it afresh and canonicalising the whole for its fingerprint cost about
// 0.1 ms a check; here the rest is resolved once per set of overrides, and the fingerprint is the same FNV-1a hash
// carried on from the rest's text before the thresholds, over the thresholds' text and the rest's text after them:
// the very value fingerprint(resolveRiskConfig(config)) gives, for a fraction of its work.
import { type DetectorOverrides, type DetectorParams, resolveDetectorParams } from "../detectors/registry.ts";
import type { ReportingThreshold } from "../detectors/structuring.ts";
import { DEFAULT_EXPOSURE_PARAMS, type ExposureParams } from "../exposure.ts";
import { PATTERNS, type PatternName } from "../findings.ts";
import { canonical, FNV_OFFSET, fingerprint, fnv1a, hex } from "./fingerprint.ts";
import { DEFAULT_SCORING_PARAMS, type ScoringParams } from "./params.ts";

export interface RiskConfig {
  /** the detectors to run; all seven by default */
  patterns?: readonly PatternName[];
  /** per-detector parameter overrides */
  detectors?: DetectorOverrides;
  /** the enabled jurisdictions' reporting thresholds, converted to USD by the caller (added to structuring's) */
  extraThresholds?: readonly ReportingThreshold[];
  exposure?: Partial<ExposureParams>;
  scoring?: Partial<ScoringParams>;
}

export interface ResolvedRiskConfig {
  patterns: PatternName[];
  detectors: DetectorParams;
  exposure: ExposureParams;
  scoring: ScoringParams;
}

export function resolveRiskConfig(config: RiskConfig = {}): ResolvedRiskConfig {
  const detectors = resolveDetectorParams(config.detectors);
  if (config.extraThresholds?.length) {
    detectors.structuring = {
      ...detectors.structuring,
      extraThresholds: [...detectors.structuring.extraThresholds, ...config.extraThresholds],
    };
  }
  return {
    patterns: PATTERNS.filter((p) => (config.patterns ?? PATTERNS).includes(p)),
    detectors,
    exposure: { ...DEFAULT_EXPOSURE_PARAMS, ...config.exposure },
    scoring: { ...DEFAULT_SCORING_PARAMS, ...config.scoring },
  };
}

export const NO_OVERRIDES: RiskConfig = Object.freeze({});
const resolvedConfigs = new WeakMap<RiskConfig, ResolvedRiskConfig>();
const fingerprints = new WeakMap<ResolvedRiskConfig, string>();

/** The configuration resolved, once per configuration object. */
export function resolvedFor(config: RiskConfig): ResolvedRiskConfig {
  let resolved = resolvedConfigs.get(config);
  if (!resolved) {
    resolved = config.extraThresholds?.length ? withThresholds(config) : resolveRiskConfig(config);
    resolvedConfigs.set(config, resolved);
  }
  return resolved;
}

/** The fingerprint of a resolved configuration, once per object. */
export function fingerprintOf(resolved: ResolvedRiskConfig): string {
  let print = fingerprints.get(resolved);
  if (print === undefined) {
    print = fingerprint(resolved);
    fingerprints.set(resolved, print);
  }
  return print;
}

// ---------------------------------------------------------------------------------------------------------
// A configuration with thresholds: the rest resolved once, the thresholds added

/** Stands for the caller's thresholds in the rest's canonical text (no threshold's text can contain it). */
const PLACEHOLDER = "\u0000thresholds\u0000";
const PLACEHOLDER_TEXT = JSON.stringify(PLACEHOLDER);

interface Rest {
  /** resolved with the placeholder as its only caller's threshold */
  resolved: ResolvedRiskConfig;
  /** the FNV-1a state after the canonical text before the placeholder, and the text after it */
  before: number;
  after: string;
}

/** The configuration without its thresholds, one object per set of parts (the objects the caller passes). */
const overrides = new WeakMap<object, WeakMap<object, WeakMap<object, WeakMap<object, RiskConfig>>>>();
const NONE = Object.freeze({});

/**
 * The configuration's overrides without its thresholds: the same object for every configuration made of the same
 * parts (patterns, detectors, exposure and scoring objects), whatever its thresholds, so that what is worked out
 * from the overrides (here, and the quick check's configuration in present.ts) is worked out once.
 */
export function overridesOf(config: RiskConfig): RiskConfig {
  const parts = [config.patterns, config.detectors, config.exposure, config.scoring].map((p) => p ?? NONE);
  let level: WeakMap<object, unknown> = overrides as WeakMap<object, unknown>;
  for (const part of parts.slice(0, -1)) {
    let next = level.get(part) as WeakMap<object, unknown> | undefined;
    if (!next) {
      next = new WeakMap();
      level.set(part, next);
    }
    level = next;
  }
  const last = parts.at(-1) as object;
  let found = level.get(last) as RiskConfig | undefined;
  if (!found) {
    const { extraThresholds: _thresholds, ...rest } = config;
    found = Object.freeze(rest);
    level.set(last, found);
  }
  return found;
}

/** The rest of each set of overrides, by overridesOf's object. */
const rests = new WeakMap<RiskConfig, Rest>();

function restOf(config: RiskConfig): Rest {
  const key = overridesOf(config);
  let rest = rests.get(key);
  if (!rest) {
    const resolved = resolveRiskConfig({
      ...key,
      extraThresholds: [PLACEHOLDER as unknown as ReportingThreshold],
    });
    const text = canonical(resolved);
    const at = text.indexOf(PLACEHOLDER_TEXT);
    rest = {
      resolved,
      before: fnv1a(text.slice(0, at), FNV_OFFSET),
      after: text.slice(at + PLACEHOLDER_TEXT.length),
    };
    rests.set(key, rest);
  }
  return rest;
}

function withThresholds(config: RiskConfig): ResolvedRiskConfig {
  const rest = restOf(config);
  const thresholds = config.extraThresholds as readonly ReportingThreshold[];
  const structuring = rest.resolved.detectors.structuring;
  const resolved: ResolvedRiskConfig = {
    ...rest.resolved,
    detectors: {
      ...rest.resolved.detectors,
      structuring: {
        ...structuring,
        // the placeholder is the last of them: the service's own thresholds come first, as resolveRiskConfig has it
        extraThresholds: [...structuring.extraThresholds.slice(0, -1), ...thresholds],
      },
    },
  };
  const middle = thresholds.map(canonical).join(",");
  fingerprints.set(resolved, hex(fnv1a(rest.after, fnv1a(middle, rest.before))));
  return resolved;
}
