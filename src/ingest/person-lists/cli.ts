// `vigia lists import KIND FILE...` and `vigia lists refresh KIND [--url URL]`: the command line of the lists of
// persons (docs/person-lists.md). The summary is printed as one JSON line; progress goes to stderr.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../../platform/config.ts";
import { OutboundClient } from "../../platform/outbound/index.ts";
import { commandProgress } from "../../platform/progress.ts";
import { LIST_KINDS, type ListKind } from "../../screening/index.ts";
import type { WithDatabase } from "../cli.ts";
import { printSummary } from "../labels/cli.ts";
import { InputError } from "../labels/row-problems.ts";
import { downloadList, NO_URL, OFFICIAL_URLS, plainHttpWarning } from "./download.ts";
import { importPersonListFiles } from "./import.ts";

const FORCE_HELP =
  "import the list even when its own date is older than the current version's (a deliberate rollback; refused otherwise)";

const ALLOW_SHRINK_HELP =
  "import the list even when it removes more than VIGIA_LIST_MAX_SHRINK_PERCENT of the current entries (refused otherwise: a truncated download looks so)";

interface ImportOptions {
  skipInvalid?: boolean;
  project?: string;
  force?: boolean;
  allowShrink?: boolean;
}

function kindOf(raw: string): ListKind {
  if ((LIST_KINDS as readonly string[]).includes(raw)) return raw as ListKind;
  throw new InputError(`unknown list KIND "${raw}": one of ${LIST_KINDS.join(", ")}`);
}

export function registerListsCommand(program: Command, withDatabase: WithDatabase) {
  const lists = program.command("lists").description("lists of persons that clients are screened against");
  lists
    .command("import")
    .description(
      "import a list of persons (a new version replaces the current one in one transaction; the same content changes nothing): ofac-sdn (sdn.csv with alt.csv beside it, or SDN.XML), un (the UN consolidated list XML), sat-69b (the SAT's Listado completo 69-B CSV), mx-lpb (the UIF's Lista de Personas Bloqueadas as docs/person-lists.md lays it out), ftm (OpenSanctions FollowTheMoney JSON lines)",
    )
    .argument("<kind>", LIST_KINDS.join(" | "))
    .argument("<files...>", "the list's file (ofac-sdn: sdn.csv and optionally alt.csv)")
    .option("--skip-invalid", "leave out malformed rows instead of failing the import")
    .option("--force", FORCE_HELP)
    .option("--allow-shrink", ALLOW_SHRINK_HELP)
    .option(
      "--project <id>",
      "mx-lpb: the project whose own list it is (the UIF delivers the LPB to each provider; no other project reads it)",
    )
    .action((kind: string, files: string[], opts: ImportOptions) =>
      withDatabase(async ({ database }) => {
        const k = kindOf(kind);
        const projectId = opts.project === undefined ? undefined : Number(opts.project);
        if (projectId !== undefined && !(Number.isInteger(projectId) && projectId > 0))
          throw new InputError(`--project must be a project id (a positive integer), not "${opts.project}"`);
        printSummary(
          await importPersonListFiles(database.db, k, files, {
            ...(projectId !== undefined ? { projectId } : {}),
            skipInvalid: opts.skipInvalid,
            force: opts.force,
            maxShrink: loadConfig().listMaxShrink,
            allowShrink: opts.allowShrink,
            progress: commandProgress(`lists import ${k}`),
          }),
        );
      }),
    );
  lists
    .command("refresh")
    .description(
      `download a list from its official URL and import it (${LIST_KINDS.filter((k) => OFFICIAL_URLS[k]).join(", ")}; ftm with --url; mx-lpb is not public)`,
    )
    .argument("<kind>", LIST_KINDS.join(" | "))
    .option("--url <url>", "download from this URL instead of the official one")
    .option("--skip-invalid", "leave out malformed rows instead of failing the import")
    .option("--force", FORCE_HELP)
    .option("--allow-shrink", ALLOW_SHRINK_HELP)
    .action(
      (kind: string, opts: { url?: string; skipInvalid?: boolean; force?: boolean; allowShrink?: boolean }) =>
        withDatabase(async ({ database }) => {
          const k = kindOf(kind);
          const url = opts.url ?? OFFICIAL_URLS[k];
          if (!url) throw new InputError(`vigia lists refresh ${k}: ${NO_URL[k]}`);
          // --url reaches loopback and private addresses only with VIGIA_ALLOW_PRIVATE_OUTBOUND=true.
          const outbound = new OutboundClient({ allowPrivate: loadConfig().allowPrivateOutbound });
          const warning = plainHttpWarning(url);
          if (warning) process.stderr.write(`vigia: warning: ${warning}\n`);
          const file = await downloadList(outbound, k, url);
          try {
            printSummary(
              await importPersonListFiles(database.db, k, [file], {
                skipInvalid: opts.skipInvalid,
                force: opts.force,
                maxShrink: loadConfig().listMaxShrink,
                allowShrink: opts.allowShrink,
                progress: commandProgress(`lists refresh ${k}`),
                source: url,
              }),
            );
          } finally {
            await fs.promises.rm(path.dirname(file), { recursive: true, force: true });
          }
        }),
    );
}
