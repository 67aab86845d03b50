// The quickstart's demo integrator (`vigia webhooks listen`) answers profiles complete enough for every file the tour
// can call for: each demo client validates against the profile schema and lacks nothing its own jurisdiction's files
// need, so that a field a jurisdiction starts to require cannot silently break the tour's avisos.
import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { DEMO_PROFILES } from "../../src/integrator/receiver.ts";
import { jurisdiction, type Profile, ProfileSchema } from "../../src/jurisdictions/index.ts";

describe("the demo integrator's profiles", () => {
  for (const [name, profile] of Object.entries(DEMO_PROFILES)) {
    it(`${name}: a valid profile with everything its jurisdiction's files need`, () => {
      expect([...Value.Errors(ProfileSchema, profile)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      const country = (profile as Profile).address?.country as string;
      const governing = jurisdiction(country);
      expect(governing?.code, `${name} lives in a jurisdiction Vigía reports to`).toBe(country);
      expect(governing?.profileGap(profile as Profile)).toBeUndefined();
    });
  }

  it("covers both of the tour's jurisdictions", () => {
    expect(Object.values(DEMO_PROFILES).map((p) => (p as Profile).address?.country)).toEqual(["CO", "MX"]);
  });
});
