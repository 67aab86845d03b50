// The compliance reports API (docs/api.md, "Compliance reports"): list a month's reports (and the files that could
// not be written), get a report's signed download URL (by file name with projectId/countryCode/period, or by `path`,
// which takes precedence), generate a month on demand, mark a report filed, list the generations with their
// problems, and the filing calendar. Thin: parse, authorise, call the verbs. The signed URL itself is served by
// file-routes.ts. The jurisdictions come from src/jurisdictions' registry: no route names a country.
import { type Static, Type } from "@sinclair/typebox";
import { JURISDICTION_CODES } from "../jurisdictions/index.ts";
import { SIGNED_URL_LIFETIME_MS, signPath } from "../platform/crypto/signed-url.ts";
import { invalid, MESSAGES, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { Pagination, page } from "../platform/http/params.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import { actorName, actorOf } from "../projects/index.ts";
import { filingCalendar, filingsDueBetween, MAX_SPAN_DAYS, markFilingFiled } from "./calendar.ts";
import type { ReportsContext } from "./context.ts";
import { assertClosed, generateReports } from "./generate.ts";
import { PERIOD_PATTERN } from "./period.ts";
import { findReport, listGenerations, listReports, markFiled } from "./store.ts";
import type { CountryCode } from "./tables.ts";

/** How long a signed download URL is valid. */
export const SIGNED_URL_TTL_MS = SIGNED_URL_LIFETIME_MS;

const Country = StringEnum(JURISDICTION_CODES);
const Period = Type.String({ pattern: PERIOD_PATTERN, description: "YYYY-MM" });
const Day = Type.String({
  pattern: "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$",
  description: "YYYY-MM-DD",
});
const ProjectId = Type.Integer({ minimum: 1, maximum: 2147483647 });
/** A storage path as platform/storage accepts it: up to 8 plain segments of up to 128 characters, no `..`. */
export const STORAGE_PATH_PATTERN =
  "^(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9._-]{0,127}(/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,7}$";
const StoragePath = Type.String({ minLength: 1, maxLength: 512, pattern: STORAGE_PATH_PATTERN });

const ListQuerySchema = Type.Object(
  {
    projectId: ProjectId,
    period: Period,
    countryCode: Country,
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    ...Pagination.properties,
  },
  { additionalProperties: false },
);

const LocateQuery = Type.Object(
  {
    projectId: Type.Optional(ProjectId),
    countryCode: Type.Optional(Country),
    period: Type.Optional(Period),
    path: Type.Optional(StoragePath),
  },
  { additionalProperties: false },
);
const ReportIdParams = Type.Object({
  reportId: Type.String({
    minLength: 1,
    maxLength: 512,
    description:
      "the file name (with projectId, countryCode and period), or the list's `id` (the storage path) percent-encoded " +
      "as one path segment (`mx%2F1%2F2024-01%2Fana.xml`)",
  }),
});

const ReportSchema = Type.Object({
  id: Type.String({ description: "the storage path" }),
  name: Type.String(),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
  path: Type.String(),
  countryCode: Type.String(),
  period: Type.String(),
  userId: Type.Union([Type.String(), Type.Null()]),
  kind: StringEnum(["monthly", "urgent", "zero"]),
  version: Type.Integer({ description: "0 for a file that could not be written" }),
  status: StringEnum(["draft", "filed", "failed"], {
    description:
      "failed: the file could not be written (see `reason`); it is tried again by the next generation",
  }),
  size: Type.Integer(),
  sha256: Type.Union([Type.String(), Type.Null()]),
  filedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  folio: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], { description: "why a failed file could not be written" }),
  code: Type.Union([Type.String(), Type.Null()], {
    description:
      "why, as a code: `no_value` (a transfer without its price or rate), `pending` (transfers still to check), `invalid_file` (the file does not validate against its schema), `profile_unreadable` (the client's profile could not be read), `unknown_basis` (an aviso's ground the jurisdiction does not have)",
  }),
  field: Type.Union([Type.String(), Type.Null()], { description: "the profile field at fault, when one is" }),
});

const FilingSchema = Type.Object({
  countryCode: Type.String(),
  period: Type.String(),
  filing: Type.String({
    description: "the filing's id: MX-AVI-MONTHLY, CO-TRANSACTIONS, CO-ROS-ABSENCE, MX-URGENT:<txHash>",
  }),
  name: Type.String(),
  deadline: Type.String({ format: "date-time" }),
  deadlineLocal: Type.String({
    description:
      "the deadline on the jurisdiction's wall clock with its offset, as the law states it: Mexico's monthly AVI is due the 17th at 23:59:59 in Mexico City, `2026-12-17T23:59:59-06:00`",
  }),
  timeZone: Type.String({ description: "the jurisdiction's IANA time zone (America/Mexico_City)" }),
  source: Type.String(),
  verified: Type.Boolean({
    description:
      "false when the deadline was read in secondary sources, not in the law's own text (Colombia's 20 days): `source` says so",
  }),
  state: StringEnum(["pending", "generated", "filed", "overdue"]),
  folio: Type.Union([Type.String(), Type.Null()]),
  files: Type.Array(
    Type.Object({
      path: Type.String(),
      status: StringEnum(["draft", "filed"]),
      folio: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  failures: Type.Array(
    Type.Object({
      userId: Type.Union([Type.String(), Type.Null()]),
      reason: Type.String(),
      field: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
const Folio = Type.String({
  pattern: "^[A-Za-z0-9][A-Za-z0-9-]{0,39}$",
  description: "the regulator's acknowledgement",
});

const DownloadSchema = Type.Object({
  name: Type.String(),
  signedUrl: Type.String(),
  period: Type.String(),
  expiresAt: Type.String({ format: "date-time" }),
  url: Type.String({ description: "the same as `signedUrl`, for clients that read `url`" }),
  filename: Type.String({ description: "the same as `name`, for clients that read `filename`" }),
});

const ProblemSchema = Type.Object({
  userId: Type.Optional(Type.String()),
  reason: Type.String(),
  code: Type.Optional(Type.String()),
  field: Type.Optional(Type.String()),
  blocks: Type.Optional(Type.String()),
});

const GenerationSchema = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  files: Type.Array(
    Type.Object({
      path: Type.String(),
      name: Type.String(),
      version: Type.Integer(),
      outcome: StringEnum(["written", "unchanged"]),
    }),
  ),
  removed: Type.Array(Type.String()),
  problems: Type.Array(ProblemSchema),
  elsewhere: Type.Array(
    Type.Object({ userId: Type.String(), governedBy: Type.Union([Type.String(), Type.Null()]) }),
    { description: "clients with reportable operations whom another jurisdiction (or none) governs" },
  ),
});

const GenerationRecordSchema = Type.Object({
  id: Type.Integer(),
  countryCode: Type.String(),
  period: Type.String(),
  trigger: Type.String(),
  actor: Type.String(),
  status: Type.String(),
  written: Type.Integer(),
  unchanged: Type.Integer(),
  removed: Type.Integer(),
  problems: Type.Array(ProblemSchema),
  txHash: Type.Union([Type.String(), Type.Null()]),
  startedAt: Type.String({ format: "date-time" }),
  finishedAt: Type.String({ format: "date-time" }),
});

const GenerateBody = Type.Object(
  { projectId: ProjectId, period: Period, countryCode: Country },
  { additionalProperties: false },
);
const FiledBody = Type.Object(
  {
    folio: Type.Optional(
      Type.String({
        pattern: "^[2-9]\\d{3}-[1-9]\\d{0,8}$",
        description: "the acknowledgement folio (YYYY-N)",
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The storage path a GET /reports/{reportId} names: `path` when given; the list's `id` (a storage path, holding
 * `/`, percent-encoded as one segment and decoded by the router) as it is; else rebuilt from the file name.
 */
function pathOf(reportId: string, q: Static<typeof LocateQuery>, keyProject: number): string {
  if (q.path !== undefined) return q.path;
  if (reportId.includes("/")) {
    // Not a path of the project's (or not one at all): not found, as any other report that isn't there.
    if (!new RegExp(STORAGE_PATH_PATTERN).test(reportId)) throw notFound("Report");
    return reportId;
  }
  if (!q.countryCode || !q.period)
    throw invalid(MESSAGES.invalidQuery, [
      { path: "/countryCode", message: "countryCode and period (or path) are required with a file name" },
    ]);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(reportId)) throw notFound("Report");
  return `${q.countryCode.toLowerCase()}/${q.projectId ?? keyProject}/${q.period}/${reportId}`;
}

export function registerReportRoutes(app: HttpApp, ctx: ReportsContext): void {
  const tags = ["Compliance reports"];

  const download = async (projectId: number, path: string) => {
    const report = await findReport(ctx, projectId, path);
    const expiresAt = ctx.now() + SIGNED_URL_TTL_MS;
    const base = ctx.publicUrl.replace(/\/+$/, "");
    const signedUrl = `${base}/v1/files/${report.path}?${signPath(ctx.serverKeys, report.path, expiresAt, ctx.now())}`;
    return {
      name: report.name,
      signedUrl,
      period: report.period,
      expiresAt: new Date(Math.floor(expiresAt / 1000) * 1000).toISOString(),
      // The names a third-party client of the original service reads.
      url: signedUrl,
      filename: report.name,
    };
  };

  app.get(
    "/reports",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "List a month's compliance reports",
        description:
          "The report files of a project, country and month (`period` YYYY-MM), by name; `search` filters by name or user id. " +
          "`id` is the storage path; percent-encoded as one path segment, it is GET /reports/{reportId}'s `reportId`.",
        querystring: ListQuerySchema,
        response: { 200: Ok(Type.Array(ReportSchema)) },
      },
    },
    async (req) => {
      const q = req.query;
      return ok(
        await listReports(ctx, {
          projectId: q.projectId,
          countryCode: q.countryCode as CountryCode,
          period: q.period,
          ...page(q),
          ...(q.search ? { search: q.search } : {}),
        }),
      );
    },
  );

  app.get(
    "/reports/generations",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "List a month's report generations",
        description:
          "Every generation of a project's reports for a country and month, newest first, with what it wrote and " +
          "why any file was not written (`problems`).",
        querystring: Type.Object(
          { projectId: ProjectId, period: Period, countryCode: Country, ...Pagination.properties },
          { additionalProperties: false },
        ),
        response: { 200: Ok(Type.Array(GenerationRecordSchema)) },
      },
    },
    async (req) =>
      ok(
        await listGenerations(ctx, {
          projectId: req.query.projectId,
          countryCode: req.query.countryCode as CountryCode,
          period: req.query.period,
          ...page(req.query),
        }),
      ),
  );

  app.get(
    "/reports/calendar",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The filings a period owes, or those due in a span",
        description:
          "Every filing due for the month (`period` YYYY-MM) in each of the project's jurisdictions (or `countryCode`): " +
          "monthly reports and each 24-hour aviso, with its deadline and state (pending, generated, filed, overdue). " +
          "Or, with `from` and `to` (YYYY-MM-DD, UTC days, inclusive; at most 400 days) and no `period`, every " +
          "filing whose deadline falls in that span, across months, soonest first: the coming weeks' work. Nothing " +
          "is owed for a month before the project existed.",
        querystring: Type.Object(
          {
            projectId: ProjectId,
            period: Type.Optional(Period),
            from: Type.Optional(Day),
            to: Type.Optional(Day),
            countryCode: Type.Optional(Country),
          },
          { additionalProperties: false },
        ),
        response: { 200: Ok(Type.Array(FilingSchema)) },
      },
    },
    async (req) => {
      const q = req.query;
      // A month asked for is answered, whatever else the query holds (the docs page's "Try it out" fills in every
      // parameter): `from` and `to` are read only without `period`.
      if (q.period !== undefined) return ok(await filingCalendar(ctx, q.projectId, q.period, q.countryCode));
      if (q.from === undefined || q.to === undefined)
        throw invalid(MESSAGES.invalidQuery, [
          {
            path: q.from === undefined ? "/from" : "/to",
            message:
              "give `period` (YYYY-MM), or `from` and `to` (YYYY-MM-DD) for the filings due in that span",
          },
        ]);
      const from = new Date(`${q.from}T00:00:00.000Z`);
      const to = new Date(`${q.to}T23:59:59.999Z`);
      const days = (to.getTime() - from.getTime()) / 86_400_000;
      if (!(days > 0) || days > MAX_SPAN_DAYS)
        throw invalid(MESSAGES.invalidQuery, [
          { path: "/to", message: `must be on or after \`from\`, at most ${MAX_SPAN_DAYS} days later` },
        ]);
      return ok(await filingsDueBetween(ctx, q.projectId, from, to, q.countryCode));
    },
  );

  app.post(
    "/reports/calendar/filed",
    {
      config: { access: "officer" },
      schema: {
        tags,
        summary: "Record a filing made with the regulator",
        description:
          "For a filing Vigía writes no file for (Colombia's report of absence of suspicious operations), or to " +
          "record a whole filing at once: its state becomes `filed`, with the folio when given.",
        body: Type.Object(
          {
            projectId: ProjectId,
            countryCode: Country,
            period: Period,
            filing: Type.String({ minLength: 1, maxLength: 120 }),
            folio: Type.Optional(Folio),
          },
          { additionalProperties: false },
        ),
        response: { 200: Ok(FilingSchema) },
      },
    },
    async (req) => {
      const principal = principalOf(req);
      if (req.body.projectId !== principal.projectId) throw notFound("Project");
      return ok(
        await markFilingFiled(ctx, {
          ...req.body,
          actor: actorName(actorOf(principal)),
        }),
      );
    },
  );

  app.get(
    "/reports/download",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Get a report's signed download URL by its path",
        querystring: Type.Object({ path: StoragePath }, { additionalProperties: false }),
        response: { 200: Ok(DownloadSchema) },
      },
    },
    async (req) => ok(await download(principalOf(req).projectId, req.query.path)),
  );

  app.post(
    "/reports/generate",
    {
      config: { access: "officer", heavy: true },
      schema: {
        tags,
        summary: "Generate a month's reports now",
        description:
          "Builds the project's files for a country and a month that has closed in the regulator's time zone. " +
          "Files not yet filed are replaced; filed ones are kept, and changes become new versions.",
        body: GenerateBody,
        response: { 200: Ok(GenerationSchema) },
      },
    },
    async (req) => {
      const principal = principalOf(req);
      if (req.body.projectId !== principal.projectId) throw notFound("Project");
      const countryCode = req.body.countryCode as CountryCode;
      assertClosed(countryCode, req.body.period, ctx.now());
      const summary = await generateReports(ctx, {
        projectId: principal.projectId,
        countryCode,
        period: req.body.period,
        trigger: "api",
        actor: actorName(actorOf(principal)),
      });
      return ok({
        id: summary.generationId,
        status: summary.status,
        files: summary.files.map(({ kind: _, ...f }) => f),
        removed: summary.removed,
        problems: summary.problems,
        elsewhere: summary.elsewhere,
      });
    },
  );

  app.get(
    "/reports/:reportId",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Get a report's signed download URL",
        description:
          "`reportId` is the list's `id` (the storage path) percent-encoded as one path segment, or the file name " +
          "(e.g. `u-1.xml`) located with `projectId`, `countryCode` and `period`; or give `path`, which takes " +
          "precedence. The URL (`signedUrl`, also as `url`) works without an API key for 30 days.",
        params: ReportIdParams,
        querystring: LocateQuery,
        response: { 200: Ok(DownloadSchema) },
      },
    },
    async (req) => {
      const project = principalOf(req).projectId;
      return ok(await download(project, pathOf(req.params.reportId, req.query, project)));
    },
  );

  app.post(
    "/reports/:reportId/filed",
    {
      config: { access: "officer" },
      schema: {
        tags,
        summary: "Mark a report filed with the regulator",
        description:
          "Located as in GET /reports/{reportId}. A filed report never changes: later generations of its month " +
          "write new versions (for Mexico, corrections carrying the `folio` given here).",
        params: ReportIdParams,
        querystring: LocateQuery,
        body: Type.Optional(FiledBody),
        response: { 200: Ok(ReportSchema) },
      },
    },
    async (req) => {
      const principal = principalOf(req);
      const path = pathOf(req.params.reportId, req.query, principal.projectId);
      return ok(
        await markFiled(ctx, principal.projectId, path, req.body?.folio, actorName(actorOf(principal))),
      );
    },
  );
}
