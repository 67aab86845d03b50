// An investigation's evidence file (docs/api.md, "Investigations and layered analyses"): the investigation, its
// completed analysis's verdict (score, level, reason, model version, data coverage, findings and exposure paths
// with their transaction hashes) and the labels of the counterparties it names with their sources, as JSON or
// markdown, with the same sections as an alert's evidence pack (src/alerts). The verdict is the stored one, so the
// same investigation gives the same bytes while the labels it names stay as they are.
import type { Kysely } from "kysely";
import {
  analysisEvidenceOf,
  type EvidenceFile,
  evidenceFile,
  labelsSection,
  labelsUsed,
  type PackFormat,
  table,
  verdictSection,
} from "../alerts/index.ts";
import { getAnalysis } from "../analysis/index.ts";
import type { AddressCodec } from "../chains/address/index.ts";
import { AppError } from "../platform/errors.ts";
import type { DB } from "../schema.ts";
import type { Investigation } from "./store.ts";

const PACK_VERSION = "vigia-investigation-evidence/1";

export async function investigationEvidence(
  db: Kysely<DB>,
  investigation: Investigation,
  projectId: number,
  format: PackFormat,
  codec: AddressCodec,
): Promise<EvidenceFile> {
  const analysis = investigation.analysis_id
    ? await getAnalysis(db, projectId, investigation.analysis_id)
    : undefined;
  if (analysis?.status !== "completed" || !analysis.result)
    throw new AppError(
      "conflict",
      `The investigation's analysis has not completed (its status is \`${investigation.status}\`): its evidence is written from the final verdict; ask again once \`status\` is \`completed\``,
    );
  const verdict = analysisEvidenceOf(
    {
      projectId,
      chainId: analysis.chainId,
      address: analysis.address,
      kind: "investigation",
      result: analysis.result,
    },
    analysis.completedAt ?? analysis.updatedAt,
  );
  const labels = await labelsUsed(db, analysis.chainId, [
    ...verdict.exposure.flatMap((e) => e.counterparties),
    ...verdict.findings.flatMap((f) => f.wallets),
  ]);
  const pack = {
    pack: PACK_VERSION,
    investigation: {
      id: investigation.id,
      name: investigation.name,
      address: investigation.address,
      chainId: investigation.chain_id,
      maxDepth: investigation.max_depth,
      incremental: investigation.incremental,
      createdAt: investigation.created_at,
      closedAt: investigation.closed_at,
    },
    verdict,
    labels,
  };
  const body =
    format === "json"
      ? `${JSON.stringify(pack, null, 2)}\n`
      : `${[
          `# Evidence of investigation ${investigation.id}`,
          "",
          `Pack ${PACK_VERSION}. Its SHA-256 is given with each download (header \`x-evidence-sha256\`).`,
          "",
          ...table(
            ["Field", "Value"],
            [
              ["Name", investigation.name],
              ["Address", `\`${investigation.address}\``],
              ["Chain", investigation.chain_id],
              ["Depth", investigation.max_depth],
              ["Opened", investigation.created_at],
              ["Closed", investigation.closed_at],
            ],
          ),
          ...verdictSection(verdict),
          ...labelsSection(labels),
        ]
          .join("\n")
          .trimEnd()}\n`;
  return evidenceFile(body, format, `investigation-${investigation.id}`, codec);
}
