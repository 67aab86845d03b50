// GET /analysis/{analysisId}/progress and GET /analysis/{analysisId}/layers/{layer} (docs/api.md,
// "Investigations and layered analyses"). Thin: parse, authorise (route config), call a view, shape.
import { presentInText } from "../../chains/address/index.ts";
import type { HttpApp } from "../../platform/http/app.ts";
import { principalOf } from "../../platform/http/auth.ts";
import { Ok, ok } from "../../platform/http/schemas.ts";
import type { AnalysisContext } from "../context.ts";
import { layerInSpanish } from "../words.ts";
import type { CompletedLayer } from "./layer-result.ts";
import { AnalysisParams, LayerParams, LayerResultSchema, ProgressSchema } from "./schemas.ts";
import { readLayer, readProgress } from "./views.ts";

export const COMPLETED_LAYER_CACHE = "public, max-age=3600";
/** The same for a signed-in person: their browser may keep it, a shared cache may not. */
const PRIVATE_LAYER_CACHE = "private, max-age=3600";

export function registerLayeredRoutes(app: HttpApp, ctx: AnalysisContext): void {
  const tags = ["Investigations"];

  app.get(
    "/analysis/:analysisId/progress",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Progress of a layered analysis",
        description:
          "Poll every 2 seconds while `status` is `pending` or `running`; when `completedLayers` grows, fetch " +
          "layer `completedLayers - 1` (and any skipped); stop at `completed` or `failed`.",
        params: AnalysisParams,
        response: { 200: Ok(ProgressSchema) },
      },
    },
    async (req, reply) => {
      reply.header("cache-control", "no-cache");
      return ok(await readProgress(ctx.db, principalOf(req).projectId, req.params.analysisId));
    },
  );

  app.get(
    "/analysis/:analysisId/layers/:layer",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "One layer of a layered analysis",
        description:
          "Layer 0 is the root's own transfers and its direct counterparties, layer k the addresses k hops away " +
          "and their counterparties. A completed layer never changes (`Cache-Control: public, max-age=3600`; `private` for a signed-in person); " +
          "a layer not processed yet answers its short form, `pending` (`Cache-Control: no-cache`).",
        params: LayerParams,
        response: { 200: Ok(LayerResultSchema) },
      },
    },
    async (req, reply) => {
      const answer = await readLayer(
        ctx.db,
        principalOf(req).projectId,
        req.params.analysisId,
        req.params.layer,
      );
      // The answer depends on who asks (a key's or a signed-in person's project): a shared cache must keep one
      // caller's answer from another. A person's answer (by session cookie) is kept by their browser only.
      reply.header("vary", "x-api-key, x-api-header, Cookie");
      const cacheControl = principalOf(req).keyId === null ? PRIVATE_LAYER_CACHE : COMPLETED_LAYER_CACHE;
      if (!answer.completed) {
        reply.header("cache-control", "no-cache");
        return ok(answer.layer);
      }
      // The stored text, its addresses as the chain writes them (Tron: base58check): every read of a completed
      // layer is the same bytes.
      const body = presentInText(ctx.registry.codec(answer.chainId), answer.body);
      // In Spanish the texts the service writes (the reason, each pattern's description) are written from the
      // layer's evidence (src/analysis/words.ts); the codes and figures are the stored layer's.
      if (req.lang === "es")
        return reply
          .header("cache-control", cacheControl)
          .send(ok(layerInSpanish(JSON.parse(body) as CompletedLayer)));
      return reply
        .header("cache-control", cacheControl)
        .type("application/json; charset=utf-8")
        .serializer((payload: unknown) => payload as string)
        .send(`{"success":true,"data":${body}}` as never);
    },
  );
}
