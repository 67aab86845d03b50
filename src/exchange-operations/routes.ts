// HTTP routes of the exchange's operations (docs/api.md "Exchange operations"). Thin: parse, authorise (route
// config), call the store, shape the answer.

import { Type } from "@sinclair/typebox";
import type { Kysely } from "kysely";
import type { ChainRegistry } from "../chains/index.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { ProjectParams } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import type { DB } from "../schema.ts";
import { checkedItems, firstIndexOf } from "./items.ts";
import {
  IngestResponse,
  MAX_OPERATIONS,
  OPERATION_KINDS,
  OperationsBody,
  OperationsQuery,
  StoredOperation,
} from "./schemas.ts";
import { clientOperations, insertOperations } from "./store.ts";

export interface ExchangeOperationsContext {
  db: Kysely<DB>;
  registry: ChainRegistry;
  /** told when operations were written (the monitor of this process looks at once) */
  onIngested?: (count: number) => void;
}

export function registerExchangeOperationRoutes(app: HttpApp, ctx: ExchangeOperationsContext): void {
  const tags = ["Exchange operations"];

  app.post(
    "/projects/:projectId/operations",
    {
      config: { access: "developer" },
      schema: {
        tags,
        summary: `Send 1 to ${MAX_OPERATIONS} of the exchange's own operations`,
        description:
          `Each operation is \`{operationId, userId, kind, at, ...}\`, \`kind\` one of ${OPERATION_KINDS.join(", ")}, ` +
          'with its kind\'s fields (docs/api.md, "Exchange operations"). Idempotent by `operationId`: the same ' +
          "operation again changes nothing (`unchanged`); another content under a held id is a 409 naming each " +
          "difference. A malformed item is refused (400) with its index and field. Either way nothing of the " +
          "request is written. The operations are then judged by the project's operation rules (fan-in, " +
          "pass-through, fiat structuring, third-party funding, withdrawal to risk) within seconds.",
        params: ProjectParams,
        body: OperationsBody,
        response: { 200: Ok(IngestResponse) },
      },
    },
    async (req) => {
      const items = checkedItems(req.body.operations, (chainId, raw) => {
        if (!ctx.registry.get(chainId))
          return { error: `chain ${chainId} is not one this service follows: see GET /chains` };
        return ctx.registry.parseAddress(chainId, raw);
      });
      const counted = await insertOperations(
        ctx.db,
        req.params.projectId,
        items,
        req.body.operations.length,
        new Date(),
        firstIndexOf(req.body.operations),
      );
      if (counted.created > 0) ctx.onIngested?.(counted.created);
      return ok(counted);
    },
  );

  app.get(
    "/projects/:projectId/operations",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "A client's operations, oldest first",
        description:
          "The operations of `userId` concluded in [`from`, `to`), as they were accepted, with when they were " +
          "received and judged and the rules that could not be judged (`unjudged`: the client's profile could not " +
          "be read, or a destination could not be analysed).",
        params: ProjectParams,
        querystring: OperationsQuery,
        response: { 200: Ok(Type.Object({ operations: Type.Array(StoredOperation) })) },
      },
    },
    async (req) => {
      const q = req.query;
      const operations = await clientOperations(ctx.db, {
        projectId: req.params.projectId,
        userId: q.userId,
        ...(q.from ? { from: new Date(q.from) } : {}),
        ...(q.to ? { to: new Date(q.to) } : {}),
        limit: q.limit ?? 200,
      });
      return ok({ operations });
    },
  );
}
