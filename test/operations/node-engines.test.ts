// No EBADENGINE on the Node versions the README supports: every package the lockfile installs (and Vigía itself)
// declares an engines.node range that each supported version satisfies. The supported versions are the README's
// ("Node.js 22.13 or later"): its first release and the newest lines, 22 and 24.
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const SUPPORTED = ["22.13.0", "22.20.0", "24.0.0", "24.11.0"];

type Version = [number, number, number];
const parse = (text: string): { v: Version; parts: number } => {
  const nums = text
    .replace(/^v/, "")
    .split(".")
    .filter((p) => p !== "" && p !== "x" && p !== "X" && p !== "*")
    .map(Number);
  return { v: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0], parts: nums.length };
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` satisfies a semver range of the forms engines fields use (||, AND by space, ^ ~ >= > <= < =, x). */
function satisfies(version: string, range: string): boolean {
  const v = parse(version).v;
  return range.split("||").some((alternative) => {
    const comparators = alternative
      .trim()
      .replace(/([<>=^~]+)\s+/g, "$1")
      .split(/\s+/)
      .filter((c) => c !== "");
    if (comparators.length === 0) return true;
    return comparators.every((c) => {
      const [, op = "", rest = ""] = /^([<>=^~]*)(.*)$/.exec(c) ?? [];
      if (rest === "*" || rest === "x" || rest === "") return true;
      const { v: b, parts } = parse(rest);
      const upper = (level: number): Version =>
        level === 0 ? [b[0] + 1, 0, 0] : level === 1 ? [b[0], b[1] + 1, 0] : [b[0], b[1], b[2] + 1];
      switch (op) {
        case ">=":
          return compare(v, b) >= 0;
        case ">":
          return compare(v, b) > 0;
        case "<=":
          return compare(v, b) <= 0;
        case "<":
          return compare(v, b) < 0;
        case "^":
          return compare(v, b) >= 0 && compare(v, upper(b[0] === 0 && parts > 1 ? 1 : 0)) < 0;
        case "~":
          return compare(v, b) >= 0 && compare(v, upper(parts > 1 ? 1 : 0)) < 0;
        default:
          // "20", "10.*", "=22.1.0": that release line, or that version.
          return compare(v, b) >= 0 && compare(v, upper(Math.max(0, Math.min(parts, 3) - 1))) < 0;
      }
    });
  });
}

describe("engines", () => {
  it("the range reader reads the forms the lockfile holds", () => {
    expect(satisfies("20.20.2", "^20.19.0 || >=22.12.0")).toBe(true);
    expect(satisfies("22.11.0", "^20.19.0 || >=22.12.0")).toBe(false);
    expect(satisfies("22.12.0", "^20.19.0 || ^22.13.0 || >=23.5.0")).toBe(false);
    expect(satisfies("22.13.0", "^20.19.0 || ^22.13.0 || >=23.5.0")).toBe(true);
    expect(satisfies("20.20.2", ">=22")).toBe(false);
    expect(satisfies("21.0.0", "18 || 20 || >=22")).toBe(false);
    expect(satisfies("24.0.0", "^20.0.0 || ^22.0.0 || >=24.0.0")).toBe(true);
    expect(satisfies("23.1.0", "^20.0.0 || ^22.0.0 || >=24.0.0")).toBe(false);
    expect(satisfies("22.13.0", "10.* || >= 12.*")).toBe(true);
    expect(satisfies("22.13.0", ">=16 || 14 >=14.17")).toBe(true);
    expect(satisfies("14.16.0", "14 >=14.17")).toBe(false);
  });

  it("every package installed from the lockfile, and Vigía, accepts each Node version the README supports", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    expect(readme).toContain("Needs Node.js 22.13 or later");
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
    expect(pkg.engines.node).toBe(">=22.13");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    expect(lock.packages[""]?.engines).toEqual(pkg.engines);
    const refused: string[] = [];
    for (const [name, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!range) continue;
      for (const version of SUPPORTED)
        if (!satisfies(version, range)) refused.push(`${name || "vigia"} (${range}) on ${version}`);
    }
    expect(refused).toEqual([]);
  });
});
