// `npm run eval`: the detection benchmark (eval/run.ts); `npm run eval -- persons`: the person-screening eval
// (eval/persons/run.ts). Each takes its own flags after its name.
if (process.argv[2] === "persons") {
  process.argv.splice(2, 1);
  (await import("./persons/run.ts")).main();
} else {
  await import("./run.ts");
}
