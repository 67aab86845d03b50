// POST/GET/DELETE /projects/{projectId}/addresses[/{id}] (docs/api.md, "Addresses and monitoring"): register an
// address of one of the integrator's users for monitoring, list and read them with their latest risk, and stop
// monitoring one (the address and what was recorded about it are kept). Thin: parse, authorise, call the store.
import { Type } from "@sinclair/typebox";
import { type AnalysisContext, storedScans } from "../analysis/index.ts";
import { normalizeEvmAddress } from "../chains/address/index.ts";
import { AppError, invalid, MESSAGES, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { ProjectParams, page } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import { readBalances } from "./balances.ts";
import {
  type AddressBody,
  AddressParams,
  AddressSchema,
  AddressWithBalanceSchema,
  ListQuery,
  RegisterBody,
} from "./schemas.ts";
import { getAddress, insertAddress, listAddresses, type MonitoredAddress, stopAddress } from "./store.ts";

export function registerMonitoringRoutes(
  app: HttpApp,
  ctx: AnalysisContext,
  caps: { monitoredAddresses: number },
): void {
  const tags = ["Addresses and monitoring"];

  /** The records as the API answers them, each with its latest stored scan (one statement for the page). */
  async function answer(project: number, found: MonitoredAddress[]): Promise<AddressBody[]> {
    const byChain = new Map<number, string[]>();
    for (const a of found) byChain.set(a.chainId, [...(byChain.get(a.chainId) ?? []), a.address]);
    const risk = new Map<string, AddressBody["risk"]>();
    for (const [chainId, addresses] of byChain) {
      const stored = await storedScans(ctx, project, addresses, chainId);
      for (const r of stored.results) risk.set(`${chainId}:${r.address}`, r);
    }
    return found.map((a) => ({
      id: a.id,
      address: a.address,
      chain_id: a.chainId,
      foreign_user_id: a.foreignUserId,
      description: a.description,
      created_at: a.createdAt.toISOString(),
      risk: risk.get(`${a.chainId}:${a.address}`) ?? null,
      stopped_at: a.stoppedAt?.toISOString() ?? null,
      jurisdiction: a.jurisdiction,
    }));
  }

  const idOf = (raw: string): number => {
    if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound("Address");
    return Number(raw);
  };

  app.post(
    "/projects/:projectId/addresses",
    {
      config: { access: "developer" },
      schema: {
        tags,
        summary: "Register an address for monitoring",
        description:
          "`address` (EVM) on `chainId`, belonging to the integrator's user `foreign_user_id`. Its new transfers " +
          "are checked against the laws of the project's jurisdictions. The same address and chain twice: 409; past " +
          "the project's cap of monitored addresses (VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT): 409.",
        params: ProjectParams,
        body: RegisterBody,
        response: { 201: Ok(AddressSchema) },
      },
    },
    async (req, reply) => {
      const address = normalizeEvmAddress(req.body.address);
      if (!address)
        throw invalid(MESSAGES.invalidBody, [{ path: "/address", message: "must be an EVM address" }]);
      const chainId = Number(req.body.chainId);
      if (!ctx.registry.get(chainId)) throw notFound("Chain");
      const jurisdiction = req.body.jurisdiction ?? null;
      if (jurisdiction !== null) {
        const enabled = (await ctx.projectJurisdictions?.(req.params.projectId)) ?? [];
        if (!enabled.includes(jurisdiction))
          throw invalid(MESSAGES.invalidBody, [
            {
              path: "/jurisdiction",
              message: `the project does not enable ${jurisdiction} (its jurisdictions: ${enabled.join(", ") || "none"})`,
            },
          ]);
      }
      const description = req.body.description?.trim() || null;
      const created = await insertAddress(ctx.db, caps.monitoredAddresses, {
        projectId: req.params.projectId,
        chainId,
        address,
        foreignUserId: req.body.foreign_user_id,
        description,
        jurisdiction,
      });
      if (!created) throw new AppError("conflict", "This address is already monitored on this chain");
      const [body] = await answer(req.params.projectId, [created]);
      return reply.status(201).send(ok(body as AddressBody));
    },
  );

  app.get(
    "/projects/:projectId/addresses",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "List monitored addresses, oldest first",
        description: "Only the addresses still monitored; `foreign_user_id` keeps one user's.",
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Ok(Type.Array(AddressSchema)) },
      },
    },
    async (req) => {
      const found = await listAddresses(ctx.db, req.params.projectId, {
        foreignUserId: req.query.foreign_user_id,
        ...page(req.query),
      });
      return ok(await answer(req.params.projectId, found));
    },
  );

  app.get(
    "/projects/:projectId/addresses/:id",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Read a monitored address, with its latest risk and its balances",
        params: AddressParams,
        response: { 200: Ok(AddressWithBalanceSchema) },
      },
    },
    async (req) => {
      const found = await getAddress(ctx.db, req.params.projectId, idOf(req.params.id));
      if (!found) throw notFound("Address");
      const chain = ctx.registry.get(found.chainId);
      const balance = chain
        ? await readBalances(ctx.db, chain, found.address).catch(() => undefined)
        : undefined;
      return ok({
        ...((await answer(req.params.projectId, [found]))[0] as AddressBody),
        balance: balance ?? null,
      });
    },
  );

  app.delete(
    "/projects/:projectId/addresses/:id",
    {
      config: { access: "developer" },
      schema: {
        tags,
        summary: "Stop monitoring an address",
        description:
          "Its new transfers are no longer checked. The address, its notifications and their delivery attempts " +
          "are kept (the regulations require years of retention); it can be registered again.",
        params: AddressParams,
        response: { 200: Ok(AddressSchema) },
      },
    },
    async (req) => {
      const stopped = await stopAddress(ctx.db, req.params.projectId, idOf(req.params.id));
      if (!stopped) throw notFound("Address");
      return ok((await answer(req.params.projectId, [stopped]))[0] as AddressBody);
    },
  );
}
