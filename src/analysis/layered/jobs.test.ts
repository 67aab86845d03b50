// The reason a failed layered analysis shows: the layer and a fixed cause, never the error's own text.
import { describe, expect, it } from "vitest";
import { failureReason } from "./jobs.ts";

describe("failureReason", () => {
  it("says which layer, and a fixed cause", () => {
    const leaky = new Error(
      "connect ECONNREFUSED 10.0.0.7:5432 (host db-internal.example) body: <html>secret</html>",
    );
    expect(failureReason(2, leaky)).toBe("Layer 2 failed: a data source failed");
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(failureReason(0, timeout)).toBe("Layer 0 failed: it ran out of time");
    expect(failureReason(1, "deadline exceeded")).toBe("Layer 1 failed: it ran out of time");
  });
});
