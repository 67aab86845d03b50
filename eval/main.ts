// `npm run eval`: the detection benchmark (eval/run.ts); `npm run eval -- persons`: the person-screening eval
// (eval/persons/run.ts); `npm run eval -- clusters`: Bitcoin address clustering (eval/clusters/run.ts);
// `npm run eval -- utxo-patterns`: peel chains, structuring and exchange hopping on Bitcoin (eval/utxo-patterns).
// Each takes its own flags after its name.
if (process.argv[2] === "persons") {
  process.argv.splice(2, 1);
  (await import("./persons/run.ts")).main();
} else if (process.argv[2] === "clusters") {
  process.argv.splice(2, 1);
  (await import("./clusters/run.ts")).main();
} else if (process.argv[2] === "utxo-patterns") {
  process.argv.splice(2, 1);
  await (await import("./utxo-patterns/run.ts")).main();
} else {
  await import("./run.ts");
}
