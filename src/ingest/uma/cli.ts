// `vigia import uma --year Y --daily D --monthly M --annual A --dof YYYY-MM-DD`: a year's UMA as INEGI published it in
// the DOF, so that the year's Mexican thresholds are judged without a new release (uma-store.ts checks the figures).
// Running processes read it within a minute. The figures are the law's (src/jurisdictions/mx/uma-store.ts keeps them).
import type { Command } from "commander";
import { importUma } from "../../jurisdictions/index.ts";
import { importCommand, type WithDatabase } from "../cli.ts";

const amount = (name: string) => (raw: string) => {
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(raw))
    throw new Error(`--${name} must be an amount in MXN such as 117.31`);
  return Number(raw);
};

export function registerUmaCommand(program: Command, withDatabase: WithDatabase): void {
  importCommand(program)
    .command("uma")
    .description(
      "import a year's UMA (Mexico) as INEGI published it in the DOF: daily, monthly and annual values, in force from 1 February",
    )
    .requiredOption("--year <year>", "the year of the publication, e.g. 2027", (v: string) => Number(v))
    .requiredOption("--daily <mxn>", "the daily value, e.g. 117.31", amount("daily"))
    .requiredOption("--monthly <mxn>", "the monthly value (the daily × 30.4)", amount("monthly"))
    .requiredOption("--annual <mxn>", "the annual value (the monthly × 12)", amount("annual"))
    .requiredOption("--dof <date>", "the day the DOF published it, YYYY-MM-DD")
    .option("--source <text>", "where it was read, beyond the DOF (default INEGI)")
    .action(
      (opts: {
        year: number;
        daily: number;
        monthly: number;
        annual: number;
        dof: string;
        source?: string;
      }) =>
        withDatabase(async ({ database }) => {
          const result = await importUma(
            database.db,
            {
              year: opts.year,
              daily: opts.daily,
              monthly: opts.monthly,
              annual: opts.annual,
              dofDate: opts.dof,
              ...(opts.source ? { source: opts.source } : {}),
            },
            new Date(),
          );
          const what =
            result.outcome === "corrected"
              ? `corrected from MXN ${result.before.daily.toFixed(2)} / ${result.before.monthly.toFixed(2)} / ${result.before.annual.toFixed(2)}`
              : result.outcome === "added"
                ? `added: MXN ${opts.daily.toFixed(2)} a day from 1 February ${opts.year} to 31 January ${opts.year + 1}`
                : "already imported with these figures: nothing changed";
          process.stdout.write(`UMA ${opts.year} ${what}. Running services read it within a minute.\n`);
        }),
    );
}
