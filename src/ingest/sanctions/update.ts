// `vigia sanctions update [FILE]`: replaces the sanctioned addresses (category `sanctioned`, source `ofac-sdn`)
// with those of OFAC's SDN list, in one transaction: new addresses are added, changed ones updated, and addresses
// no longer on the list lose the label. EVM addresses are labelled on every EVM chain (chain id 0): the designated
// key controls the address on all of them. TRX addresses, and USDT ones written `T...`, label Tron mainnet in the
// stored 0x form, their base58 checksum checked (labels/chains.ts): a mistyped address is a rejected entry, never a
// label on some other address. Without FILE the list is downloaded from OFAC_SDN_URL first. An update that would
// remove more than the allowed share of the sanctioned addresses is refused (ShrinkRefused) unless --allow-shrink.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { type OutboundClient, OutboundError } from "../../platform/outbound/index.ts";
import { NO_PROGRESS, type Progress } from "../../platform/progress.ts";
import type { DB } from "../../schema.ts";
import { percent } from "../../screening/index.ts";
import { ALL_EVM_CHAINS, placeAddress, resolveCurrency } from "../labels/chains.ts";
import { assertReadableFile } from "../labels/csv-rows.ts";
import { recordedImport } from "../labels/import-run.ts";
import { LabelStage, type MergeCounts } from "../labels/label-stage.ts";
import { InputError, RowProblems, ShrinkRefused } from "../labels/row-problems.ts";
import { DIGITAL_CURRENCY_ID, parseSdnEntry } from "./sdn-entry.ts";
import { type SdnListInfo, sdnEntries } from "./sdn-scan.ts";

/**
 * OFAC's published SDN list, from its Sanctions List Service (www.treasury.gov/ofac/downloads/sdn.xml redirects
 * there, to another host, which the download does not follow).
 */
export const OFAC_SDN_URL =
  "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.XML";
export const SANCTIONS_SOURCE = "ofac-sdn";
/** Being on the list is what `sanctioned` means: the list is the authority, not evidence of one. */
const SANCTIONS_CONFIDENCE = 100;

export interface SanctionsOptions {
  skipInvalid?: boolean;
  progress?: Progress;
  /** the largest share (0-1) of the sanctioned addresses the update may remove (VIGIA_LIST_MAX_SHRINK_PERCENT) */
  maxShrink?: number;
  /** update even when more than maxShrink would go (--allow-shrink) */
  allowShrink?: boolean;
}

export interface SanctionsSummary extends MergeCounts {
  update: "sanctions";
  file: string;
  list_date: string | null;
  entries: number;
  addresses: number;
  rejected: number;
  skipped: number;
  skipped_reasons?: Record<string, number>;
  rejected_rows?: string[];
  run_id: number;
}

export async function updateSanctions(
  db: Kysely<DB>,
  file: string,
  options: SanctionsOptions = {},
): Promise<SanctionsSummary> {
  await assertReadableFile(file);
  const problems = new RowProblems(file, options.skipInvalid);
  const progress = options.progress ?? NO_PROGRESS;
  const info: SdnListInfo = { publishDate: undefined, recordCount: undefined, entries: 0 };
  try {
    const result = await recordedImport(db, "sanctions", file, async (trx) => {
      const stage = await LabelStage.create(trx);
      let addresses = 0;
      for await (const { line, xml } of sdnEntries(file, info)) {
        progress.tick(info.entries);
        const entry = parseSdnEntry(xml);
        if (!entry) continue;
        const label = `OFAC SDN: ${entry.name}${entry.programs.length > 0 ? ` (${entry.programs.join(", ")})` : ""}`;
        for (const { code, address } of entry.addresses) {
          addresses += 1;
          const placed = address.startsWith("0x")
            ? placeAddress(ALL_EVM_CHAINS, address)
            : resolveCurrency(code, address);
          if ("error" in placed) problems.reject(line, `entry ${entry.uid}: ${placed.error}`);
          else if ("skip" in placed) problems.skip(placed.skip);
          else if (!problems.failed) {
            await stage.add(line, {
              address: placed.address,
              chainId: placed.chainId,
              label,
              category: "sanctioned",
              originalCategory: `${DIGITAL_CURRENCY_ID}${code}`,
              source: SANCTIONS_SOURCE,
              confidence: SANCTIONS_CONFIDENCE,
            });
          }
        }
      }
      problems.throwIfFailed();
      if (addresses - problems.rejected - problems.skipped === 0) {
        throw new InputError(
          `${file}: no digital currency addresses in ${info.entries} entries; refusing to remove every sanctioned address`,
        );
      }
      const counts = await stage.merge({
        aggregate: true,
        replaceSources: [SANCTIONS_SOURCE],
        logChanges: true,
      });
      // The addresses held before are those the file updated, left alone or removed. Throwing here rolls the
      // merge back with the transaction.
      const held = counts.updated + counts.unchanged + counts.deleted;
      if (
        options.maxShrink !== undefined &&
        !options.allowShrink &&
        counts.deleted > held * options.maxShrink
      ) {
        throw new ShrinkRefused(
          `${file}: this SDN list would remove ${counts.deleted} of the ${held} sanctioned addresses held (${percent(counts.deleted / held)}), more than the ${percent(options.maxShrink)} allowed (VIGIA_LIST_MAX_SHRINK_PERCENT), so nothing was changed. A truncated download looks so; if OFAC did delist them, run the command again with --allow-shrink`,
          held,
          held - counts.deleted,
        );
      }
      return {
        rows_read: addresses,
        rows_written: counts.inserted + counts.updated + counts.deleted,
        counts,
      };
    });
    return {
      update: "sanctions",
      file,
      list_date: info.publishDate ?? null,
      entries: info.entries,
      addresses: result.rows_read,
      ...result.counts,
      ...problems.summary(),
      ...(problems.rejected > 0 ? { rejected_rows: problems.messages } : {}),
      run_id: result.run_id,
    };
  } finally {
    progress.done();
  }
}

/** The largest SDN download accepted (the advanced XML is about 100 MB). */
export const SDN_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Downloads the SDN list to a temporary file through the safe outbound client (its address policy, a size limit, a
 * total timeout); the caller removes it. OFAC serves the list from its Sanctions List Service, which may redirect
 * within its own host: redirects to the same host over https are followed, any other is refused (a moved list is
 * then named in the error, for `--url`).
 */
export async function downloadSdnList(
  outbound: OutboundClient,
  url = OFAC_SDN_URL,
  timeoutMs = 300_000,
  /** cancels the download (a worker stopping) */
  signal?: AbortSignal,
): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "vigia-sdn-"));
  const file = path.join(dir, "sdn.xml");
  try {
    // The list is about 100 MB; anything past SDN_MAX_BYTES is not it, and fails the download.
    const response = await outbound.request({
      method: "GET",
      url,
      timeoutMs,
      maxResponseBytes: SDN_MAX_BYTES,
      toFile: file,
      sameHostRedirects: 3,
      ...(signal ? { signal } : {}),
    });
    if (response.status < 200 || response.status >= 300) throw new Error(`${url}: HTTP ${response.status}`);
  } catch (error) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw error instanceof OutboundError ? new Error(`${url}: ${error.message}`) : error;
  }
  return file;
}
