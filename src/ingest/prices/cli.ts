// `vigia import prices FILE` and `vigia import fx FILE`: the command line of the rate imports.
import type { Command } from "commander";
import { commandProgress } from "../../platform/progress.ts";
import { importCommand, type WithDatabase } from "../cli.ts";
import { printSummary } from "../labels/cli.ts";
import { importFx, importPrices } from "./import-rates.ts";

export function registerRateCommands(program: Command, withDatabase: WithDatabase) {
  const parent = importCommand(program);
  parent
    .command("prices")
    .description(
      "import daily USD prices, CSV chain_id,token,date,price_usd (token: native or a token address)",
    )
    .argument("<file>", "CSV file")
    .option("--skip-invalid", "leave out rejected rows instead of failing the import")
    .action((file: string, opts: { skipInvalid?: boolean }) =>
      withDatabase(async ({ database }) => {
        printSummary(
          await importPrices(database.db, file, { ...opts, progress: commandProgress("import prices") }),
        );
      }),
    );
  parent
    .command("fx")
    .description(
      "import daily exchange rates, CSV date,currency,per_usd (units of the currency per US dollar)",
    )
    .argument("<file>", "CSV file")
    .option("--skip-invalid", "leave out rejected rows instead of failing the import")
    .action((file: string, opts: { skipInvalid?: boolean }) =>
      withDatabase(async ({ database }) => {
        printSummary(await importFx(database.db, file, { ...opts, progress: commandProgress("import fx") }));
      }),
    );
}
