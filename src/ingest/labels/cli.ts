// `vigia import tags FILE`: the command line of the label import. Prints a one-line JSON summary on stdout; bad
// input fails with one line (file:line: reason) on stderr and a non-zero exit, from main.ts.
import { type Command, Option } from "commander";
import { commandProgress } from "../../platform/progress.ts";
import { importCommand, type WithDatabase } from "../cli.ts";
import { importLabels, type LabelFileFormat } from "./import-labels.ts";

/** Prints the summary on stdout, and a one-line warning on stderr when --skip-invalid left rows out. */
export function printSummary(summary: { rejected: number; rejected_rows?: string[] }) {
  if (summary.rejected > 0) {
    process.stderr.write(
      `vigia: warning: left out ${summary.rejected} rejected rows (--skip-invalid), first: ${summary.rejected_rows?.[0]}\n`,
    );
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

export function registerTagsCommand(program: Command, withDatabase: WithDatabase) {
  importCommand(program)
    .command("tags")
    .description(
      "import address labels from a GraphSense TagPack (.yaml) or a CSV file (address,chain_id,label,category,source); see docs/labels.md",
    )
    .argument("<file>", "TagPack YAML or CSV file")
    .addOption(
      new Option("--format <format>", "file format (default: from the extension)").choices([
        "tagpack",
        "csv",
      ]),
    )
    .option(
      "--source <name>",
      "source name of the labels (default: tagpack:<file name>, or the CSV source column)",
    )
    .option("--replace", "also delete labels of the file's sources that the file no longer has")
    .option("--skip-invalid", "leave out rejected rows instead of failing the import")
    .action(
      (
        file: string,
        opts: { format?: LabelFileFormat; source?: string; replace?: boolean; skipInvalid?: boolean },
      ) =>
        withDatabase(async ({ database }) => {
          const summary = await importLabels(database.db, file, {
            ...opts,
            progress: commandProgress("import tags"),
          });
          printSummary(summary);
        }),
    );
}
