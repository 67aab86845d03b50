// An evidence file as it is downloaded (an alert's pack, an investigation's evidence): its bytes, their SHA-256,
// its media type and name; the answer that carries it (a file to keep, never cached, its hash in a header), and that
// answer as the OpenAPI document describes it.
import { createHash } from "node:crypto";
import { Type } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import { type AddressCodec, EVM_CODEC, presentInText } from "../chains/address/index.ts";
import { FileResponse } from "../platform/http/schemas.ts";

export const PACK_FORMATS = ["json", "md"] as const;
export type PackFormat = (typeof PACK_FORMATS)[number];

/** The 200 of an evidence route, for the OpenAPI document: the pack `pack` in JSON or markdown, and its digest. */
export const evidenceResponse = (pack: string) => ({
  ...FileResponse(
    `The file, as an attachment (\`content-disposition\`): \`format=json\` answers application/json, \`format=md\` text/markdown, both UTF-8.`,
    {
      "application/json": Type.Object(
        { pack: Type.String({ description: `the pack's kind and version: \`${pack}\`` }) },
        { additionalProperties: true },
      ),
      "text/markdown": Type.String(),
    },
  ),
  headers: { "x-evidence-sha256": { type: "string", description: "the SHA-256 of the bytes, in hex" } },
});

export interface EvidenceFile {
  body: string;
  sha256: string;
  mediaType: string;
  fileName: string;
}

/**
 * The file of `body` in `format`, named `<stem>-evidence.<format>`, its addresses written as the chain writes them
 * (`codec`: Tron's base58check; the store's hex form for EVM chains).
 */
export function evidenceFile(
  stored: string,
  format: PackFormat,
  stem: string,
  codec: AddressCodec = EVM_CODEC,
): EvidenceFile {
  const shown = presentInText(codec, stored);
  // In JSON, `<`, `>` and `&` occur only inside strings (a note, a reason): written as \u escapes they read back the
  // same, and a JSON file pasted into a page or opened as HTML can't open a tag with them.
  const body =
    format === "json"
      ? shown.replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
      : shown;
  return {
    body,
    sha256: createHash("sha256").update(body, "utf8").digest("hex"),
    mediaType: format === "json" ? "application/json; charset=utf-8" : "text/markdown; charset=utf-8",
    fileName: `${stem}-evidence.${format}`,
  };
}

export function sendEvidence(reply: FastifyReply, file: EvidenceFile) {
  return reply
    .header("content-type", file.mediaType)
    .header("content-disposition", `attachment; filename="${file.fileName}"`)
    .header("x-evidence-sha256", file.sha256)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(file.body);
}
