// The `vigia import operations FILE --project ID` command (import-file.ts does the work).
import { type Command, InvalidArgumentError } from "commander";
import { loadChainRegistry } from "../chains/index.ts";
import { importCommand, type WithDatabase } from "../ingest/index.ts";
import { commandProgress } from "../platform/progress.ts";
import { projectExists } from "../projects/index.ts";
import { ImportRefused, importOperations } from "./import-file.ts";

const projectId = (v: string) => {
  if (!/^[1-9]\d{0,9}$/.test(v)) throw new InvalidArgumentError("must be a project id");
  return Number(v);
};

export function registerOperationsImportCommand(program: Command, withDatabase: WithDatabase): void {
  importCommand(program)
    .command("operations")
    .description(
      "import the exchange's own operations (buys, sells, swaps, SPEI/Pix deposits and withdrawals, crypto deposits and withdrawals, fees, custody) from JSON lines or CSV",
    )
    .argument(
      "<file>",
      "JSON lines (.jsonl), one operation per line as the API takes it, or CSV with a header",
    )
    .requiredOption("--project <id>", "the project the operations belong to", projectId)
    .action((file: string, opts: { project: number }) =>
      withDatabase(async ({ database, config }) => {
        if (!(await projectExists(database.db, opts.project)))
          throw new Error(`project ${opts.project} not found: see the projects of \`vigia projects create\``);
        const registry = loadChainRegistry(config.chainsFile);
        try {
          const s = await importOperations(
            database.db,
            opts.project,
            file,
            (chainId, raw) =>
              registry.get(chainId)
                ? registry.parseAddress(chainId, raw)
                : { error: `chain ${chainId} is not one this service follows (VIGIA_CHAINS)` },
            commandProgress("import operations"),
          );
          process.stdout.write(
            `${s.lines.toLocaleString("en-US")} operations read: ${s.created.toLocaleString("en-US")} new, ${s.unchanged.toLocaleString("en-US")} already held.${s.created > 0 ? " The workers judge the new ones within seconds." : ""}\n`,
          );
        } catch (error) {
          if (!(error instanceof ImportRefused)) throw error;
          for (const p of error.problems.slice(0, 50))
            process.stderr.write(`line ${p.line}${p.field ? `, ${p.field}` : ""}: ${p.message}\n`);
          if (error.problems.length > 50) process.stderr.write(`… and ${error.problems.length - 50} more\n`);
          throw new Error(
            `${error.message}; ${error.written.lines.toLocaleString("en-US")} lines before it were imported (${error.written.created} new). Correct the lines named and import the file again: operations already held are left as they are`,
          );
        }
      }),
    );
}
