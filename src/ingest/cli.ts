// The `vigia import ...` commands share one parent command; each import feature adds its subcommand to it.
import type { Command } from "commander";
import type { Database } from "../platform/db/open.ts";
import type { DB } from "../schema.ts";

/**
 * main.ts's way of running a command against the database (directly, or through a running `vigia serve`), with the
 * configuration's chain list (VIGIA_CHAINS), which says how each chain writes its addresses.
 */
export type WithDatabase = <T>(
  fn: (ctx: { database: Database<DB>; config: { chainsFile: string | undefined } }) => Promise<T>,
) => Promise<T>;

/** The `import` command of `program`, created on first use (by whichever import feature registers first). */
export function importCommand(program: Command): Command {
  const existing = program.commands.find((command) => command.name() === "import");
  if (existing) return existing;
  return program.command("import").description("import data files into the chain data store");
}
