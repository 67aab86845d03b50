// Reads a V8 CPU profile (`node --cpu-prof`, as bench/quick-load.ts --cpu-prof writes one) and prints where the
// time went: by place (a room of src/, a package of node_modules, Node's own code, the engine's idle, GC) and the
// functions with the most self time, and, for each function named with --focus, its total time (itself and what it
// calls) with the places that time went to.
//
//   node bin/run-ts.js bench/cpu-profile.ts FILE.cpuprofile [--top 30] [--focus quickRisk,coverageOf]
//   node bin/run-ts.js bench/cpu-profile.ts NEW.cpuprofile --checks N --against OLD.cpuprofile --checks-against M
//
// With --checks (the requests the profiled process answered) and --against, both profiles are put per request
// (µs of self time each) and the places and functions are listed by how much more each costs in the first.
import fs from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: src/<room>, a package, Node's internals, or the engine's own pseudo-frames. */
function placeOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) {
    const name = frame.functionName;
    if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") return name;
    return "(native)";
  }
  if (url.startsWith("wasm://")) return "(WebAssembly: PGlite's engine)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  const src = /\/src\/([^/]+)/.exec(url);
  if (src) return `src/${(src[1] as string).replace(/\.ts$/, "")}`;
  if (url.startsWith("node:")) return "node";
  return url.replace(/^.*\//, "");
}

const functionOf = (frame: CallFrame) =>
  `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(node_modules|src)\//, "$1/")}:${frame.lineNumber + 1}`;

interface Summary {
  /** µs sampled, and of them not idle */
  total: number;
  busy: number;
  places: Map<string, number>;
  functions: Map<string, number>;
  /** per --focus function: its inclusive time and the places it went to */
  focus: Map<string, { inside: number; under: Map<string, number> }>;
}

const add = (map: Map<string, number>, key: string, t: number) => map.set(key, (map.get(key) ?? 0) + t);

function summarise(file: string, focus: string[]): Summary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries())
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const out: Summary = { total: 0, busy: 0, places: new Map(), functions: new Map(), focus: new Map() };
  for (const wanted of focus) out.focus.set(wanted, { inside: 0, under: new Map() });
  for (const [id, t] of self) {
    const frame = byId.get(id)?.callFrame as CallFrame;
    out.total += t;
    if (frame.functionName === "(idle)") continue;
    out.busy += t;
    const place = placeOf(frame);
    add(out.places, place, t);
    add(out.functions, functionOf(frame), t);
    // A sample counts once for a function however often it is on the stack (recursion).
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      onStack.add(byId.get(at)?.callFrame.functionName ?? "");
    for (const [wanted, f] of out.focus) {
      if (!onStack.has(wanted)) continue;
      f.inside += t;
      add(f.under, place, t);
    }
  }
  return out;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function main(): void {
  const args = process.argv.slice(2);
  const valued = new Set(["--top", "--focus", "--checks", "--against", "--checks-against"]);
  const file = args.find((a, i) => !a.startsWith("--") && !valued.has(args[i - 1] ?? ""));
  if (!file) {
    process.stderr.write(
      "usage: node bin/run-ts.js bench/cpu-profile.ts FILE.cpuprofile [--top N] [--focus f,g] [--checks N --against OLD --checks-against M]\n",
    );
    process.exit(2);
  }
  const top = Number(option(args, "--top") ?? 30) || 30;
  const focus = (option(args, "--focus") ?? "").split(",").filter(Boolean);
  const against = option(args, "--against");
  const s = summarise(file, focus);
  const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;

  if (against) {
    const checks = Number(option(args, "--checks"));
    const checksAgainst = Number(option(args, "--checks-against"));
    if (!(checks > 0 && checksAgainst > 0)) {
      process.stderr.write(
        "--against needs --checks and --checks-against (requests each process answered)\n",
      );
      process.exit(2);
    }
    const o = summarise(against, focus);
    const per = (us: number, n: number) => us / n;
    console.log(
      `µs of CPU per request: ${per(s.busy, checks).toFixed(0)} in ${file}, ${per(o.busy, checksAgainst).toFixed(0)} in ${against}\n`,
    );
    const diff = (a: Map<string, number>, b: Map<string, number>) =>
      [...new Set([...a.keys(), ...b.keys()])]
        .map((k) => ({ k, now: per(a.get(k) ?? 0, checks), before: per(b.get(k) ?? 0, checksAgainst) }))
        .sort((x, y) => Math.abs(y.now - y.before) - Math.abs(x.now - x.before))
        .slice(0, top);
    const row = (r: { k: string; now: number; before: number }) =>
      `  ${(r.now - r.before >= 0 ? "+" : "") + (r.now - r.before).toFixed(0)}`.padEnd(9) +
      `${r.now.toFixed(0).padStart(6)} ${r.before.toFixed(0).padStart(6)}  ${r.k}`;
    console.log("By place (change, now, then; µs per request):");
    for (const r of diff(s.places, o.places)) console.log(row(r));
    console.log("\nBy function (change, now, then; µs per request):");
    for (const r of diff(s.functions, o.functions)) console.log(row(r));
    for (const wanted of focus) {
      const a = s.focus.get(wanted)?.inside ?? 0;
      const b = o.focus.get(wanted)?.inside ?? 0;
      console.log(
        `\n${wanted}, with what it calls: ${per(a, checks).toFixed(0)} µs per request, was ${per(b, checksAgainst).toFixed(0)}`,
      );
    }
    return;
  }

  const pct = (us: number) => `${((100 * us) / s.busy).toFixed(1)}%`;
  console.log(`${file}: ${ms(s.total)} sampled, ${ms(s.busy)} busy (not idle)\n`);
  console.log("Self time by place (share of busy time):");
  for (const [place, t] of [...s.places].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(t).padStart(6)}  ${ms(t).padStart(8)}  ${place}`);
  console.log(`\nFunctions with the most self time:`);
  for (const [name, t] of [...s.functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(t).padStart(6)}  ${name}`);
  for (const [wanted, f] of s.focus) {
    console.log(`\n${wanted}: ${pct(f.inside)} of busy time (${ms(f.inside)}), spent in:`);
    for (const [place, t] of [...f.under].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(`  ${pct(t).padStart(6)}  ${place}`);
  }
}

main();
