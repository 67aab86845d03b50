// HTTP routes of the screening of persons (docs/api.md, "Screening"). Thin: parse, authorise (route config), call
// a verb, shape the answer. The project is the key's.
import { Type } from "@sinclair/typebox";
import { type AnalysisContext, DEFAULT_DEPTH } from "../analysis/index.ts";
import { FOREIGN_USER_ID_MAX } from "../integrator/index.ts";
import type { Admission } from "../platform/admission.ts";
import { invalid, MESSAGES, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { ProjectParams } from "../platform/http/params.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import { actorName, actorOf, writeAudit } from "../projects/index.ts";
import { recordOperation } from "./attempts.ts";
import { screenWithWallets } from "./combined.ts";
import { screenInSlices, withScreeningPlace } from "./fair-share.ts";
import { visibleTo } from "./lists/read.ts";
import { comparedTokens } from "./match/normalise.ts";
import { queueProjectScreening } from "./queue.ts";
import type { ListFreshness, PersonInput, PersonResult } from "./schemas.ts";
import {
  CombinedBody,
  CombinedResponse,
  ListFreshnessSchema,
  ListStateSchema,
  PersonsBody,
  PersonsResponse,
} from "./schemas.ts";
import { assertListsLoaded, screenPerson } from "./screen.ts";
import type { Screener } from "./screener.ts";
import { thresholdsOf } from "./settings.ts";

/**
 * A name with nothing to compare ("." or "-", or only particles, titles and legal forms: "de la", "S.A. de C.V.")
 * would come out `clear` against every list: it is refused, naming the field.
 */
function assertNamed(persons: { person: PersonInput; path: string }[]): void {
  const empty = persons.filter((p) => comparedTokens(p.person.name, p.person.type).length === 0);
  if (empty.length > 0)
    throw invalid(
      MESSAGES.invalidBody,
      empty.map((p) => ({
        path: p.path,
        message:
          'has nothing to compare with the lists: send the person\'s or company\'s own name, not only particles, titles or a legal form ("de la", "Lic.", "S.A. de C.V.")',
      })),
    );
}

export interface ScreeningContext {
  screener: Screener;
  analysis: AnalysisContext;
  /** the places of screening batches in this process (fair-share.ts) */
  share: Admission;
  /** each list's age and last scheduled refresh, service-wide (src/ingest keeps them) */
  freshness?: () => Promise<ListFreshness[]>;
  /** the age (hours) past which a list of a kind is stale (VIGIA_LIST_MAX_AGE_HOURS; 0: never) */
  maxAgeHours?: (kind: string) => number;
  now?: () => number;
}

export function registerScreeningRoutes(app: HttpApp, ctx: ScreeningContext): void {
  const tags = ["Screening"];
  const db = ctx.analysis.db;

  app.post(
    "/screening/persons",
    {
      config: { access: "developer", heavy: true },
      schema: {
        tags,
        summary: "Screen 1 to 100 persons against the lists of persons",
        description:
          "Each person's name is matched against every imported list (OFAC SDN, UN, SAT 69-B, the UIF's Lista de " +
          "Personas Bloqueadas, OpenSanctions sources), a birthdate, nationality or identifier confirming or ruling " +
          "out a namesake. Results in the order asked, each with its verdict (`clear`, `review`, `pep`, `match` at the " +
          "project's `screening_thresholds`), its candidates and the lists' versions. With an `operation` (an " +
          "`attempt` not carried out, or an `onboarding`), each `match` raises an `attempt` alert and, on the UIF's " +
          "Lista de Personas Bloqueadas in a Mexican project, a 24-hour aviso (Reglamento Art. 7 Bis; LFPIORPI " +
          "Art. 18-VI): `results[].operation` says which. 409 while no list is imported.",
        body: PersonsBody,
        response: { 200: Ok(PersonsResponse) },
      },
    },
    async (req) => {
      const projectId = principalOf(req).projectId;
      assertNamed(req.body.persons.map((person, i) => ({ person, path: `/persons/${i}/name` })));
      const loaded = await ctx.screener.current();
      assertListsLoaded(loaded, projectId);
      const operation = req.body.operation;
      if (operation?.userId !== undefined && req.body.persons.length > 1)
        throw invalid(MESSAGES.invalidBody, [
          {
            path: "/operation/userId",
            message:
              "names one client, and 2 or more persons were sent: send the client alone with its userId, or the persons without one",
          },
        ]);
      const thresholds = await thresholdsOf(db, projectId);
      // A hundred persons against a PEP-sized list is CPU for a while: the batch waits for its project's place and
      // gives the thread back every few milliseconds, so other projects' requests are served in between.
      const results: PersonResult[] = await withScreeningPlace(ctx.share, projectId, () =>
        screenInSlices(req.body.persons, (person) => screenPerson(loaded, thresholds, person, projectId)),
      );
      if (operation) {
        const now = new Date();
        for (const [i, result] of results.entries())
          result.operation = await recordOperation(db, {
            projectId,
            operation,
            person: req.body.persons[i] as PersonInput,
            result,
            now,
          });
      }
      return ok({ results });
    },
  );

  app.post(
    "/screening",
    {
      config: { access: "developer", heavy: true },
      schema: {
        tags,
        summary: "Screen a person and their wallets in one verdict",
        description:
          "The person is screened as by POST /screening/persons and the addresses (0 to 50) are scanned as by POST " +
          ".../addresses/scan-risk (stored results of the same depth reused). A wallet at `critical` is a `match`, " +
          "at `high` or `medium` for `review`, and one that could not be analysed is for `review`, never `clear`. " +
          "The verdict is the worst of all; `reasons` names what made it. An `operation` is recorded as by POST " +
          "/screening/persons, the alert's subject being the first wallet.",
        body: CombinedBody,
        response: { 200: Ok(CombinedResponse) },
      },
    },
    async (req) => {
      const projectId = principalOf(req).projectId;
      assertNamed([{ person: req.body.person, path: "/person/name" }]);
      const loaded = await ctx.screener.current();
      assertListsLoaded(loaded, projectId);
      const thresholds = await thresholdsOf(db, projectId);
      const combined = await screenWithWallets(
        ctx.analysis,
        projectId,
        {
          person: req.body.person,
          addresses: req.body.addresses,
          maxDepth: req.body.maxDepth ?? DEFAULT_DEPTH,
        },
        async (person) => screenPerson(loaded, thresholds, person, projectId),
      );
      const operation = req.body.operation;
      if (operation) {
        // The attempt's alert is about the first wallet the person named, in the form the chain stores it.
        const first = req.body.addresses[0];
        const chainId = first ? Number(first.chainId) : Number.NaN;
        const parsed = first ? ctx.analysis.registry.parseAddress(chainId, first.address) : undefined;
        combined.person.operation = await recordOperation(db, {
          projectId,
          operation,
          person: req.body.person,
          result: combined.person,
          ...(parsed && "address" in parsed
            ? { wallet: { chainId, address: parsed.address, addressId: null } }
            : {}),
          now: new Date(),
        });
      }
      return ok(combined);
    },
  );

  app.get(
    "/screening/lists",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary:
          "The lists of persons screened against, each at its current version and age, and their refreshes",
        description:
          "`lists`: each list of persons this project is screened against, at its current version, with its age and " +
          "whether it is stale (older than VIGIA_LIST_MAX_AGE_HOURS; the project's own LPB, loaded by hand, past 31 " +
          "days by default). `refreshes`: each public list the workers keep fresh (and `sanctions`, OFAC's digital " +
          "currency addresses), its age and how its last scheduled refresh ended.",
        response: {
          200: Ok(
            Type.Object({
              lists: Type.Array(ListStateSchema),
              refreshes: Type.Array(ListFreshnessSchema),
            }),
          ),
        },
      },
    },
    async (req) => {
      const { lists } = await ctx.screener.current();
      const refreshes = (await ctx.freshness?.()) ?? [];
      const now = ctx.now?.() ?? Date.now();
      const byKind = new Map(refreshes.map((f) => [f.kind, f]));
      return ok({
        lists: lists
          .filter(visibleTo(principalOf(req).projectId))
          .map(({ kind, version, listDate, entries, importedAt }) => {
            // The project's own LPB is aged by its own import; a public list by its last import of any kind
            // (an import that found the same content confirms it current too).
            const shared = kind === "mx-lpb" ? undefined : byKind.get(kind);
            const ageSeconds =
              shared?.ageSeconds ?? Math.max(0, Math.round((now - Date.parse(importedAt)) / 1000));
            const maxAge = (ctx.maxAgeHours?.(kind) ?? 0) * 3600;
            return {
              kind,
              version,
              listDate,
              entries,
              importedAt,
              ageSeconds,
              stale: maxAge > 0 && ageSeconds > maxAge,
            };
          }),
        // The LPB is each project's own: another project's import times are not this one's to read.
        refreshes: refreshes.filter((f) => f.kind !== "mx-lpb"),
      });
    },
  );

  app.post(
    "/projects/:projectId/screening/run",
    {
      config: { access: "officer" },
      schema: {
        tags,
        summary: "Screen every monitored client of the project, or one, now",
        description:
          "Every client of the project's monitored addresses (or only `userId`'s, when given) is screened again against the current lists by the " +
          "workers, within seconds for thousands of clients: those never screened from their profiles (read from " +
          "the integrator), the others from the persons kept of their profiles. Each new candidate raises a " +
          "`person_match` alert; a Mexican client found on the UIF's Lista de Personas Bloqueadas owes a 24-hour " +
          "aviso from that moment. 202 with how many clients were queued; 404 for a `userId` that is no monitored " +
          "client of the project; 409 while no list is imported.",
        params: ProjectParams,
        body: Type.Optional(
          Type.Object({
            userId: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: FOREIGN_USER_ID_MAX,
                description: "the integrator's id of the one client to screen",
              }),
            ),
          }),
        ),
        response: { 202: Ok(Type.Object({ queued: Type.Integer() })) },
      },
    },
    async (req, reply) => {
      assertListsLoaded(await ctx.screener.current(), req.params.projectId);
      const userId = req.body?.userId;
      const queued = await queueProjectScreening(db, req.params.projectId, userId);
      // A client is screened once one of its addresses is monitored and checked: before that there is no profile.
      if (userId !== undefined && queued === 0) throw notFound("Monitored client");
      await writeAudit(db, {
        projectId: req.params.projectId,
        actor: actorName(actorOf(principalOf(req))),
        action: "screening.run",
        target: `projects/${req.params.projectId}/screening`,
        details: userId === undefined ? { queued } : { queued, userId },
      });
      return reply.status(202).send(ok({ queued }));
    },
  );
}
