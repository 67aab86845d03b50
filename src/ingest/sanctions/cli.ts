// `vigia sanctions update [FILE]`: the command line of the OFAC SDN refresh. Without FILE it downloads the list
// from OFAC (or --url) to a temporary file first.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../../platform/config.ts";
import { OutboundClient } from "../../platform/outbound/index.ts";
import { commandProgress } from "../../platform/progress.ts";
import type { WithDatabase } from "../cli.ts";
import { printSummary } from "../labels/cli.ts";
import { downloadSdnList, OFAC_SDN_URL, updateSanctions } from "./update.ts";

export function registerSanctionsCommand(program: Command, withDatabase: WithDatabase) {
  const sanctions =
    program.commands.find((command) => command.name() === "sanctions") ??
    program.command("sanctions").description("sanctioned addresses");
  sanctions
    .command("update")
    .description(
      `replace the sanctioned addresses (source ofac-sdn) with those of OFAC's SDN list (SDN.XML); default source ${OFAC_SDN_URL}`,
    )
    .argument("[file]", `a local copy of SDN.XML (default: download it from ${OFAC_SDN_URL})`)
    .option("--url <url>", "download the list from this URL instead of OFAC's", OFAC_SDN_URL)
    .option("--skip-invalid", "leave out rejected addresses instead of failing the update")
    .option(
      "--allow-shrink",
      "update even when it removes more than VIGIA_LIST_MAX_SHRINK_PERCENT of the sanctioned addresses (refused otherwise: a truncated download looks so)",
    )
    .action((file: string | undefined, opts: { url: string; skipInvalid?: boolean; allowShrink?: boolean }) =>
      withDatabase(async ({ database }) => {
        // Through the safe outbound client: --url reaches loopback and private addresses only with
        // VIGIA_ALLOW_PRIVATE_OUTBOUND=true, and never link-local or metadata ones.
        const outbound = new OutboundClient({ allowPrivate: loadConfig().allowPrivateOutbound });
        const local = file ?? (await downloadSdnList(outbound, opts.url));
        try {
          printSummary(
            await updateSanctions(database.db, local, {
              skipInvalid: opts.skipInvalid,
              maxShrink: loadConfig().listMaxShrink,
              allowShrink: opts.allowShrink,
              progress: commandProgress("sanctions update"),
            }),
          );
        } finally {
          if (!file) await fs.promises.rm(path.dirname(local), { recursive: true, force: true });
        }
      }),
    );
}
