// `node bin/run-ts.js eval/persons/speed.ts [--names N] [--queries N]`: the matcher's search time on a synthetic
// index of N names (500,000 unless said) drawn from common Mexican names (eval/persons/lists/common-names.json, so
// that posting lists are as long as a large PEP index makes them: the worst case) plus the eval's OFAC cut, and
// queries that are common names, listed names, and listed names with a typo. Prints build time, p50 and p95 per
// query. No targets are asserted: timings depend on the machine.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { Rng } from "../../src/platform/rng.ts";
import { type IndexedEntry, PersonMatcher } from "../../src/screening/match/matcher.ts";
import { loadList } from "./eval.ts";

const { values: flags } = parseArgs({
  options: { names: { type: "string", default: "500000" }, queries: { type: "string", default: "2000" } },
});
const common = JSON.parse(
  fs.readFileSync(
    path.join(path.dirname(new URL(import.meta.url).pathname), "lists", "common-names.json"),
    "utf8",
  ),
) as { surnames: string[]; given: string[] };
const rng = new Rng(5);
const list = loadList();
const synthetic: IndexedEntry[] = [];
const total = Number(flags.names);
// A tail of rarer made-up surnames, as a real population has, so that not every token is common.
const syllables = [
  "ba",
  "ce",
  "di",
  "fo",
  "gu",
  "la",
  "me",
  "no",
  "pi",
  "ro",
  "sa",
  "te",
  "va",
  "zu",
  "xo",
  "que",
];
const rare = () => Array.from({ length: rng.int(2, 4) }, () => rng.pick(syllables)).join("");
for (let i = 0; i < total; i++) {
  const given = rng.chance(0.35)
    ? [rng.pick(common.given), rng.pick(common.given)]
    : [rng.pick(common.given)];
  const surname = () => (rng.chance(0.7) ? rng.pick(common.surnames) : rare());
  synthetic.push({
    entryId: `s${i}`,
    type: "person",
    names: [`${surname()} ${surname()}, ${given.join(" ")}`],
    dates: [],
    countries: [],
    identifiers: [],
    programs: ["role.pep"],
    list: "ftm",
    listVersion: "synthetic",
  });
}
let t = performance.now();
const matcher = new PersonMatcher([...list, ...synthetic]);
const buildMs = performance.now() - t;
const queries: string[] = [];
for (let i = 0; i < Number(flags.queries); i++) {
  const kind = i % 3;
  if (kind === 0)
    queries.push(`${rng.pick(common.given)} ${rng.pick(common.surnames)} ${rng.pick(common.surnames)}`);
  else {
    const name = rng.pick(list).names[0] as string;
    queries.push(kind === 1 ? name : name.replace(/[aeiou](?=[a-z]{3})/i, "x"));
  }
}
for (const q of queries.slice(0, 200)) matcher.search({ name: q }, { floor: 0.7 }); // warm-up
const times: number[] = [];
for (const q of queries) {
  t = performance.now();
  matcher.search({ name: q }, { floor: 0.7 });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const at = (p: number) => (times[Math.floor(p * times.length)] ?? 0).toFixed(3);
process.stdout.write(
  `${matcher.names.toLocaleString("en-US")} names (${matcher.size.toLocaleString("en-US")} entries), built in ${(buildMs / 1000).toFixed(1)} s; ` +
    `${times.length} queries: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(0.999)} ms (p99.9)\n`,
);
