// `vigia lists import KIND FILE...`: one list of persons read by its format's reader (formats/) and written as a new
// version by the screening room (src/screening), in one recorded run around one transaction: all or nothing, and an
// import of the same content changes nothing. A malformed row fails the import, naming the file and line, unless
// --skip-invalid leaves it out; rows of a kind Vigía keeps nothing for (a vessel, a FollowTheMoney address) are
// counted as skipped. A file that holds no entry at all is refused rather than allowed to empty the list, and one
// its publisher dated earlier than the current version is refused unless forced (--force): importing it would roll
// the list back (an old download replayed, or a mistake), and screening would miss everyone listed since. One that
// would remove more than the allowed share of the current entries is refused too (ShrinkRefused) unless
// --allow-shrink: a truncated but well-formed download would otherwise wipe screening.

import type { Kysely } from "kysely";
import { NO_PROGRESS, type Progress } from "../../platform/progress.ts";
import type { DB } from "../../schema.ts";
import {
  importPersonList,
  type ListEntry,
  type ListImportSummary,
  type ListKind,
  OlderListError,
  PROJECT_LIST_KINDS,
  percent,
  ShrunkListError,
} from "../../screening/index.ts";
import { assertReadableFile } from "../labels/csv-rows.ts";
import { recordedImport } from "../labels/import-run.ts";
import { InputError, RowProblems, ShrinkRefused } from "../labels/row-problems.ts";
import { READERS } from "./formats/readers.ts";

export interface PersonListImport extends ListImportSummary {
  import: "person-list";
  files: string[];
  rejected: number;
  skipped: number;
  skipped_reasons?: Record<string, number>;
  rejected_rows?: string[];
  run_id: number;
}

export async function importPersonListFiles(
  db: Kysely<DB>,
  kind: ListKind,
  files: string[],
  options: {
    skipInvalid?: boolean;
    progress?: Progress;
    source?: string;
    now?: Date;
    /** the project whose own list it is (mx-lpb: the UIF delivers the LPB to each provider) */
    projectId?: number;
    /** import even a list dated earlier than the current version (--force) */
    force?: boolean;
    /** the largest share (0-1) of the current entries the import may remove (VIGIA_LIST_MAX_SHRINK_PERCENT) */
    maxShrink?: number;
    /** import even a list that removes more than maxShrink (--allow-shrink) */
    allowShrink?: boolean;
  } = {},
): Promise<PersonListImport> {
  const first = files[0];
  if (first === undefined) throw new InputError(`vigia lists import ${kind}: name the list's file`);
  const owned = PROJECT_LIST_KINDS.includes(kind);
  if (owned && options.projectId === undefined)
    throw new InputError(
      `vigia lists import ${kind}: the UIF delivers its list to each provider, so it is one project's own: name it with --project N (no other project's screening reads it)`,
    );
  if (!owned && options.projectId !== undefined)
    throw new InputError(
      `vigia lists import ${kind}: the ${kind} list is service-wide; it takes no --project`,
    );
  for (const file of files) await assertReadableFile(file);
  const problems = new RowProblems(first, options.skipInvalid);
  const progress = options.progress ?? NO_PROGRESS;
  try {
    const reader = await READERS[kind](files, options.source ? { source: options.source } : {});
    const result = await recordedImport(db, `person-list:${kind}`, first, async (trx) => {
      async function* entries(): AsyncGenerator<ListEntry> {
        for await (const item of reader.items) {
          if ("entry" in item) {
            if (!problems.failed) yield item.entry;
          } else if ("skip" in item) problems.skip(item.skip);
          else problems.reject(item.line, item.problem);
        }
        problems.throwIfFailed();
      }
      const info =
        options.projectId === undefined ? reader.info : { ...reader.info, projectId: options.projectId };
      const summary = await importPersonList(trx, info, entries(), {
        ...(options.now ? { now: options.now } : {}),
        progress: (read) => progress.tick(read),
        force: options.force === true,
        ...(options.maxShrink !== undefined && !options.allowShrink ? { maxShrink: options.maxShrink } : {}),
      }).catch((error: unknown) => {
        if (error instanceof ShrunkListError)
          throw new ShrinkRefused(
            `${first}: this ${kind} list holds ${error.read} entries where the current version holds ${error.current}; importing it would remove ${error.current - error.read} (${percent((error.current - error.read) / error.current)}), more than the ${percent(error.maxShrink)} allowed (VIGIA_LIST_MAX_SHRINK_PERCENT), so nothing was changed. A truncated download looks so; if the list did shrink, run the command again with --allow-shrink`,
            error.current,
            error.read,
          );
        if (!(error instanceof OlderListError)) throw error;
        throw new InputError(
          `${first}: this ${kind} list is dated ${error.listDate}, older than the current version ${error.current.version} (dated ${error.current.listDate}); importing it would roll the list back, so nothing was changed. To import it anyway, run the command again with --force`,
        );
      });
      if (summary.entries === 0)
        throw new InputError(
          `${first}: no ${kind} entry was read; refusing to replace the list with an empty one (is it the right file and KIND?)`,
        );
      return {
        ...summary,
        rows_read: summary.entries + problems.rejected + problems.skipped,
        rows_written: summary.status === "imported" ? summary.entries : 0,
      };
    });
    const { rows_read: _read, rows_written: _written, ...summary } = result;
    return {
      import: "person-list",
      files,
      ...summary,
      ...problems.summary(),
      ...(problems.rejected > 0 ? { rejected_rows: problems.messages } : {}),
    };
  } finally {
    progress.done();
  }
}
