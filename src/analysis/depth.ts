// How deep an analysis reads the transaction graph: 1 to 7 hops from the analysed address, 3 when the request
// does not say (scans, investigations) and always for a risk job (docs/api.md, "Risk analysis").
import { Type } from "@sinclair/typebox";

export const DEFAULT_DEPTH = 3;
export const MAX_DEPTH = 7;

/** The optional `maxDepth` of a request body. */
export const MaxDepthSchema = Type.Optional(
  Type.Integer({ minimum: 1, maximum: MAX_DEPTH, default: DEFAULT_DEPTH }),
);
