// `vigia import tags FILE`: address labels from a GraphSense TagPack (.yaml/.yml) or a CSV file, streamed,
// validated, staged and merged in one transaction (label-stage.ts), recorded in import_runs.
import path from "node:path";
import type { Kysely } from "kysely";
import { afterExchangeLabelChange } from "../../attribution/index.ts";
import { NO_PROGRESS, type Progress } from "../../platform/progress.ts";
import type { DB } from "../../schema.ts";
import { csvLabels } from "./csv-labels.ts";
import { assertReadableFile } from "./csv-rows.ts";
import { recordedImport } from "./import-run.ts";
import { LabelStage, type MergeCounts } from "./label-stage.ts";
import { InputError, RowProblems } from "./row-problems.ts";
import { tagPackLabels, tagPackSource } from "./tagpack.ts";

export type LabelFileFormat = "tagpack" | "csv";

export interface LabelImportOptions {
  format?: LabelFileFormat;
  /** The label source name (default: "tagpack:<file name>" for a TagPack, the `source` column for a CSV). */
  source?: string;
  /** Delete the labels of the file's sources that the file no longer has. */
  replace?: boolean;
  /** Leave out rejected rows instead of failing the import. */
  skipInvalid?: boolean;
  progress?: Progress;
}

export interface LabelImportSummary extends MergeCounts {
  import: "tags";
  file: string;
  format: LabelFileFormat;
  rows: number;
  rejected: number;
  skipped: number;
  skipped_reasons?: Record<string, number>;
  run_id: number;
  /** rejected rows, file:line: reason (at most 20), when --skip-invalid let the import go on */
  rejected_rows?: string[];
  /** when the import changed exchange labels: the deposit addresses re-inferred (src/attribution) */
  deposit_addresses?: { judged: number; attributed: number };
}

export function labelFileFormat(file: string): LabelFileFormat {
  const extension = path.extname(file).toLowerCase();
  if (extension === ".yaml" || extension === ".yml") return "tagpack";
  if (extension === ".csv") return "csv";
  throw new InputError(
    `${file}: unknown label file type "${extension}" (.yaml/.yml TagPack or .csv; or --format)`,
  );
}

/** A label is a name, not a document: longer texts are refused (they would end up in reports and prompts). */
export const MAX_LABEL_LENGTH = 500;

export async function importLabels(
  db: Kysely<DB>,
  file: string,
  options: LabelImportOptions = {},
): Promise<LabelImportSummary> {
  const format = options.format ?? labelFileFormat(file);
  await assertReadableFile(file);
  const source = options.source?.trim() || undefined;
  const rows =
    format === "tagpack" ? tagPackLabels(file, source ?? tagPackSource(file)) : csvLabels(file, source);
  const problems = new RowProblems(file, options.skipInvalid);
  const progress = options.progress ?? NO_PROGRESS;
  try {
    const { result, attribution } = await afterExchangeLabelChange(db, () =>
      recordedImport(db, "labels", file, async (trx) => {
        const stage = await LabelStage.create(trx);
        let read = 0;
        for await (const { line, outcome } of rows) {
          read += 1;
          progress.tick(read);
          if ("error" in outcome) problems.reject(line, outcome.error);
          else if ("skip" in outcome) problems.skip(outcome.skip);
          else if (outcome.row.label.length > MAX_LABEL_LENGTH)
            problems.reject(line, `the label is longer than ${MAX_LABEL_LENGTH} characters`);
          else if (!problems.failed) await stage.add(line, outcome.row);
        }
        problems.throwIfFailed();
        const counts = await stage.merge({
          logChanges: true,
          ...(options.replace ? { replaceSources: "staged" } : {}),
        });
        return {
          rows_read: read,
          rows_written: counts.inserted + counts.updated + counts.deleted,
          counts,
        };
      }),
    );
    return {
      import: "tags",
      file,
      format,
      rows: result.rows_read,
      ...result.counts,
      ...problems.summary(),
      ...(problems.rejected > 0 ? { rejected_rows: problems.messages } : {}),
      run_id: result.run_id,
      ...(attribution ? { deposit_addresses: attribution } : {}),
    };
  } finally {
    progress.done();
  }
}
