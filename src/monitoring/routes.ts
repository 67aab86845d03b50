// POST/GET/PATCH/DELETE /projects/{projectId}/addresses[/{id}] (docs/api.md, "Addresses and monitoring"):
// register an address of one of the integrator's users for monitoring, on one chain or (without `chainId`) on every
// chain the indexer follows, list and read them with their latest risk, change an address's user or description,
// and stop monitoring one (the address and what was recorded about it are kept). Thin: parse, authorise, call the
// store.
import { Type } from "@sinclair/typebox";
import { type AnalysisContext, startFirstScans, storedScans } from "../analysis/index.ts";
import { normalizeEvmAddress } from "../chains/address/index.ts";
import { indexedChains } from "../chains/indexer/index.ts";
import { checkForeignUserId } from "../integrator/index.ts";
import { invalid, MESSAGES, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { ProjectParams, page } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import { actorName, actorOf } from "../projects/index.ts";
import { queueClientScreening } from "../screening/index.ts";
import { readBalances } from "./balances.ts";
import {
  type AddressBody,
  AddressParams,
  AddressSchema,
  AddressWithBalanceSchema,
  ListQuery,
  PatchBody,
  RegisterBody,
} from "./schemas.ts";
import {
  getAddress,
  insertAddress,
  listAddresses,
  type MonitoredAddress,
  stopAddress,
  updateAddress,
} from "./store.ts";

export function registerMonitoringRoutes(
  app: HttpApp,
  ctx: AnalysisContext,
  caps: { monitoredAddresses: number },
): void {
  const tags = ["Addresses and monitoring"];
  /** The chains an every-chain address is watched on: those the indexer follows. */
  const followed = () =>
    indexedChains(ctx.registry.enabled())
      .filter((c) => (c.kind ?? "evm") === "evm")
      .map((c) => c.id);
  const chainsOf = (a: MonitoredAddress) => (a.chainId === null ? followed() : [a.chainId]);
  /** The stored form of a registered address: on its chain as that chain writes it, or an EVM one for every chain. */
  const registeredAddress = (raw: string, chainId: number | null): string => {
    if (chainId !== null) {
      // A Bitcoin chain no Bitcoin Core node follows has its transfers from imports and explorers only: nothing would
      // watch the address, and it would never be notified (docs/decisions/0052-bitcoin-chains.md).
      const chain = ctx.registry.get(chainId);
      if (chain?.kind === "bitcoin" && !chain.rpc_url) {
        throw invalid(MESSAGES.invalidBody, [
          {
            path: "/chainId",
            message:
              `chain ${chainId} is a Bitcoin chain that no node follows (its entry in the chain list has no rpc_url): ` +
              "nothing would watch its addresses for new transfers; name a Bitcoin Core node (rpc_url), or scan them instead",
          },
        ]);
      }
      const parsed = ctx.registry.parseAddress(chainId, raw);
      if ("error" in parsed)
        throw invalid(MESSAGES.invalidBody, [{ path: "/address", message: parsed.error }]);
      return parsed.address;
    }
    const address = normalizeEvmAddress(raw);
    if (address) return address;
    const tron = ctx.registry.enabled().find((c) => c.kind === "tron");
    throw invalid(MESSAGES.invalidBody, [
      {
        path: "/address",
        message:
          "must be an EVM address to be watched on every EVM chain; an address of another kind needs its chainId" +
          (tron ? ` (${tron.name}: ${tron.id})` : ""),
      },
    ]);
  };

  /**
   * The records as the API answers them, each with its latest stored scan (one statement per chain for the page;
   * an every-chain address's newest scan on any chain).
   */
  async function answer(project: number, found: MonitoredAddress[]): Promise<AddressBody[]> {
    const byChain = new Map<number | null, string[]>();
    for (const a of found) byChain.set(a.chainId, [...(byChain.get(a.chainId) ?? []), a.address]);
    const risk = new Map<string, AddressBody["risk"]>();
    for (const [chainId, addresses] of byChain) {
      const stored = await storedScans(ctx, project, addresses, chainId ?? undefined);
      for (const r of stored.results) risk.set(`${chainId}:${r.address}`, r);
    }
    return found.map((a) => ({
      id: a.id,
      address: a.address,
      chain_id: a.chainId,
      chains: chainsOf(a),
      foreign_user_id: a.foreignUserId,
      description: a.description,
      created_at: a.createdAt.toISOString(),
      risk: risk.get(`${a.chainId}:${a.address}`) ?? null,
      stopped_at: a.stoppedAt?.toISOString() ?? null,
      jurisdiction: a.jurisdiction,
    }));
  }

  /** Queues the address's client for screening (src/screening); an every-chain address's alerts name chain 1. */
  const queueClient = (a: MonitoredAddress) =>
    queueClientScreening(
      ctx.db,
      {
        projectId: a.projectId,
        userId: a.foreignUserId,
        chainId: a.chainId ?? 1,
        address: a.address,
        addressId: a.id,
      },
      new Date(),
    );

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
          "`address` on `chainId` (as the chain writes it: EVM hex, Tron base58check or hex, Bitcoin as its network writes it, on a Bitcoin chain a Core node follows), or, an EVM address without `chainId`, on every EVM chain the service follows (one record), " +
          "belonging to the integrator's user `foreign_user_id`. Its new transfers are checked against the laws " +
          "of the project's jurisdictions, and notified with their chain. The same address twice on a chain (an " +
          "every-chain record is on each): 409 naming the record; past the project's cap of monitored addresses " +
          "(VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT): 409.",
        params: ProjectParams,
        body: RegisterBody,
        response: { 201: Ok(AddressSchema) },
      },
    },
    async (req, reply) => {
      const foreignUserId = checkForeignUserId(req.body.foreign_user_id, "/foreign_user_id");
      const chainId =
        req.body.chainId === undefined || req.body.chainId === null ? null : Number(req.body.chainId);
      if (chainId !== null && !ctx.registry.get(chainId)) throw ctx.registry.unknownChain(chainId);
      const address = registeredAddress(req.body.address, chainId);
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
        foreignUserId,
        description,
        jurisdiction,
        ...(chainId === null ? { followed: followed() } : {}),
        actor: actorName(actorOf(principalOf(req))),
      });
      // Its first scan, in the background: GET .../scan-risk answers `pending`, then its result (src/analysis).
      await startFirstScans(ctx, { projectId: req.params.projectId, address, chainId: created.chainId });
      // Its client, queued to be screened against the lists of persons by the workers, whether or not it operates.
      await queueClient(created);
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
      if (req.query.foreign_user_id !== undefined)
        checkForeignUserId(req.query.foreign_user_id, "/foreign_user_id", MESSAGES.invalidQuery);
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
      // Each chain it is watched on, at once: a chain without a node, or whose node did not answer, adds nothing.
      const read = await Promise.all(
        chainsOf(found).map(async (chainId) => {
          const chain = ctx.registry.get(chainId);
          const assets = chain
            ? await readBalances(ctx.db, chain, found.address).catch(() => undefined)
            : undefined;
          return assets?.map((asset) => ({ ...asset, chain_id: chainId }));
        }),
      );
      const answered = read.filter((assets) => assets !== undefined);
      return ok({
        ...((await answer(req.params.projectId, [found]))[0] as AddressBody),
        balance: answered.length > 0 ? answered.flat() : null,
      });
    },
  );

  app.patch(
    "/projects/:projectId/addresses/:id",
    {
      config: { access: "developer" },
      schema: {
        tags,
        summary: "Change a monitored address's user or description",
        description:
          "`foreign_user_id` and `description` (null or empty clears it); the fields not sent are kept. The " +
          "address's recorded transfers belong to its new user from then on (its accumulations, the next " +
          "generation of its months' files; a filed file never changes). Audited (`address.updated`, with what each " +
          "field was).",
        params: AddressParams,
        body: PatchBody,
        response: { 200: Ok(AddressSchema) },
      },
    },
    async (req) => {
      const foreignUserId =
        req.body.foreign_user_id === undefined
          ? undefined
          : checkForeignUserId(req.body.foreign_user_id, "/foreign_user_id");
      const description =
        req.body.description === undefined ? undefined : req.body.description?.trim() || null;
      const updated = await updateAddress(
        ctx.db,
        req.params.projectId,
        idOf(req.params.id),
        {
          ...(foreignUserId !== undefined ? { foreignUserId } : {}),
          ...(description !== undefined ? { description } : {}),
        },
        actorName(actorOf(principalOf(req))),
      );
      if (!updated) throw notFound("Address");
      if (foreignUserId !== undefined) await queueClient(updated);
      return ok((await answer(req.params.projectId, [updated]))[0] as AddressBody);
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
      const stopped = await stopAddress(
        ctx.db,
        req.params.projectId,
        idOf(req.params.id),
        actorName(actorOf(principalOf(req))),
      );
      if (!stopped) throw notFound("Address");
      return ok((await answer(req.params.projectId, [stopped]))[0] as AddressBody);
    },
  );
}
