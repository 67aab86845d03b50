// A configuration with a caller's thresholds is resolved from the rest worked out once, and fingerprinted by carrying
// the hash on over the thresholds: the result must be exactly what resolving and fingerprinting the whole gives.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ReportingThreshold } from "../detectors/structuring.ts";
import { fingerprintOf, type RiskConfig, resolvedFor, resolveRiskConfig } from "./config.ts";
import { fingerprint } from "./fingerprint.ts";

const threshold = fc.record(
  {
    name: fc.string(),
    usd: fc.double({ min: 1, max: 1e6, noNaN: true }),
    usdByDay: fc.dictionary(
      fc
        .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc.double({ min: 1, max: 1e6, noNaN: true }),
    ),
  },
  { requiredKeys: ["name", "usd"] },
) as fc.Arbitrary<ReportingThreshold>;

const service: RiskConfig = Object.freeze({
  detectors: { structuring: { minTransfers: 4 } },
  scoring: { suspiciousFrom: 55 },
  extraThresholds: [{ name: "service's own", usd: 2500 }],
});

describe("a configuration with thresholds", () => {
  it("resolves and fingerprints exactly as the whole does", () => {
    fc.assert(
      fc.property(
        fc.array(threshold, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (thresholds, overrides) => {
          const base = overrides ? service : {};
          const config: RiskConfig = {
            ...base,
            extraThresholds: [...(base.extraThresholds ?? []), ...thresholds],
          };
          const whole = resolveRiskConfig(config);
          const resolved = resolvedFor(config);
          expect(resolved).toEqual(whole);
          expect(fingerprintOf(resolved)).toBe(fingerprint(whole));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("tells configurations with other thresholds apart, and gives each object's result again", () => {
    const a = { ...service, extraThresholds: [{ name: "MX", usd: 3000 }] };
    const b = { ...service, extraThresholds: [{ name: "MX", usd: 3001 }] };
    expect(fingerprintOf(resolvedFor(a))).not.toBe(fingerprintOf(resolvedFor(b)));
    expect(resolvedFor(a)).toBe(resolvedFor(a));
  });
});
