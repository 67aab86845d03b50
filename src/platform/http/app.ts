// Builds the fastify application every HTTP route runs in: validation (TypeBox + Ajv), the error envelope,
// authentication, rate limiting, request ids, logs without secrets, OpenAPI 3.1 and its offline docs page,
// health and readiness probes. Feature routes are registered by the caller under /v1.
import crypto from "node:crypto";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  LogController,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from "fastify";
import type { Logger } from "pino";
import { AppError, MESSAGES } from "../errors.ts";
import { instrumentHttp } from "../metrics/index.ts";
import { type Authenticator, authHook, type SessionResolver } from "./auth.ts";
import { answerClientError, shuttingDown } from "./client-errors.ts";
import { DOCS_PAGE } from "./docs-page.ts";
import { type ApiExamples, addExamples } from "./examples.ts";
import { FailureLimiter } from "./failure-limiter.ts";
import { languageHooks, type RequestLanguage } from "./lang.ts";
import { type MetricsRouteOptions, registerMetricsRoute } from "./metrics-route.ts";
import { finishDocument } from "./openapi.ts";
import { ErrorResponse } from "./schemas.ts";
import { type SharedRateCounter, sharedRateStore } from "./shared-rate-store.ts";
import { closedBody, namingUnknownFields, unwantedBody } from "./unknown-fields.ts";
import { validationDetails } from "./validation-details.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const BODY_LIMIT = 1024 * 1024;

export type HttpApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface HttpAppOptions {
  logLevel: string;
  publicUrl: string;
  rateLimitPerMinute: number;
  /**
   * Failed authentications (401) per client address and minute before its requests are refused, except for keys
   * `knownValidKey` says were valid at their last lookup; 0: none.
   */
  authFailuresPerMinute?: number;
  knownValidKey?: (key: string) => boolean;
  /** Whether a key could be real (shape, checksum): only such keys of a limited address are looked up (auth.ts). */
  wellFormedKey?: (key: string) => boolean;
  /**
   * The proxies whose X-Forwarded-For is believed (VIGIA_TRUST_PROXY): a hop count or addresses and networks. The
   * client address they give is the one limits and logs use; absent, the connection's own address.
   */
  trustProxy?: number | string[];
  /** Requests per key and minute to each heavy route (`config.heavy`), apart from the general limit. */
  heavyRateLimitPerMinute?: number;
  /**
   * Where the per-key limits are counted: a table every process of a fleet shares (PostgreSQL); in this
   * process's memory when absent (the embedded database has one process).
   */
  sharedRateCounter?: SharedRateCounter;
  authenticate: Authenticator;
  /** Resolves a person's session cookie (`vigia_session`); without it, only keys authenticate. */
  sessions?: SessionResolver;
  /**
   * What the process needs in order to serve, by name (`database`, ...): each throws when it cannot be reached.
   * /readyz answers 503 naming those that failed or took longer than READINESS_TIMEOUT_MS.
   */
  readiness: Record<string, () => Promise<unknown>>;
  /**
   * What a ready process says beside `status: "ready"` (e.g. each chain's lag): facts for the operator that do not
   * make it unready. A failure to read them is left out of the answer, never a 503.
   */
  readinessFacts?: () => Promise<Record<string, unknown>>;
  /** Serves GET /metrics and counts every request in it (docs/operations.md, "Metrics"). */
  metrics?: MetricsRouteOptions;
  /**
   * Examples of the /v1 and /auth requests and responses and of the webhooks for the OpenAPI document, where a
   * route's schemas give none (examples.ts).
   */
  examples?: ApiExamples;
  /** The OpenAPI 3.1 `webhooks` the service calls (the integrator's notification), as the document writes them. */
  webhooks?: Record<string, unknown>;
  /**
   * How the language of a request is chosen and how an error is said in it (lang.ts); without it every answer
   * is in English and sends no Content-Language.
   */
  language?: RequestLanguage;
  /** Registers the feature routes; paths are relative to /v1. */
  routes: (app: HttpApp) => void | Promise<void>;
  /**
   * Registers routes outside /v1 (browser pages and their assets); paths are absolute. They are left out of the
   * OpenAPI description, which documents the API only, and say their own `config.access` like any route.
   */
  pages?: (app: HttpApp) => void | Promise<void>;
  /**
   * Registers the sign-in routes outside /v1 (`/auth/...`); paths are absolute. Unlike pages they are described in
   * the OpenAPI document.
   */
  session?: (app: HttpApp) => void | Promise<void>;
}

const CONTEXT_MESSAGE: Record<string, string> = {
  body: MESSAGES.invalidBody,
  querystring: MESSAGES.invalidQuery,
  params: MESSAGES.invalidPath,
  headers: "Invalid headers",
};

/** Maps anything thrown during a request to the public error envelope of docs/api.md. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError;
  if (fe?.validation) {
    const context = fe.validationContext ?? "body";
    return new AppError("invalid_request", CONTEXT_MESSAGE[context] ?? MESSAGES.invalidBody, {
      details: validationDetails(fe),
    });
  }
  switch (fe?.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new AppError("invalid_request", MESSAGES.invalidBody, {
        details: [
          {
            path: "/",
            message:
              "the body is not valid JSON (or holds a __proto__ or constructor.prototype key): send one JSON object, with double-quoted names and no trailing comma",
            text: { id: "error.detail.invalid_json" },
          },
        ],
      });
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("invalid_request", MESSAGES.invalidBody, {
        details: [
          {
            path: "/",
            message: "the body is empty: send a JSON object, or no content-type header",
            text: { id: "error.detail.empty_json" },
          },
        ],
      });
    case "FST_ERR_BAD_URL":
    case "FST_ERR_MAX_PARAM_LENGTH":
      return new AppError("invalid_request", MESSAGES.invalidPath);
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError("payload_too_large", "Request body is larger than 1 MiB");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return fe.statusCode === 415
        ? new AppError("unsupported_media_type", "Content-Type must be application/json")
        : new AppError("invalid_request", MESSAGES.invalidBody);
  }
  // The database cancelled a statement that ran past its timeout (VIGIA_STATEMENT_TIMEOUT_MS): busy, try again.
  if ((error as { code?: unknown })?.code === "57014")
    return new AppError("unavailable", "The database took too long to answer; try again shortly", {
      retryAfter: 5,
      cause: error,
    });
  const status = fe?.statusCode;
  if (status === 413) return new AppError("payload_too_large", "Request body is larger than 1 MiB");
  if (status === 415) return new AppError("unsupported_media_type", "Content-Type must be application/json");
  if (status !== undefined && status >= 400 && status < 500) {
    return new AppError("invalid_request", MESSAGES.invalidBody);
  }
  return new AppError("internal_error", MESSAGES.internal, { cause: error });
}

/** A readiness check that has not answered by then counts as failed (a database behind a dead network hangs). */
export const READINESS_TIMEOUT_MS = 3_000;

/** What `facts` answers within READINESS_TIMEOUT_MS; nothing when it throws or takes longer. */
async function readinessFactsOf(
  facts: (() => Promise<Record<string, unknown>>) | undefined,
): Promise<Record<string, unknown>> {
  if (!facts) return {};
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Record<string, unknown>>((resolve) => {
    timer = setTimeout(() => resolve({}), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([facts().catch(() => ({})), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Thrown by a readiness check whose failure is not "unreachable" (a chain late or stopped): the 503's message says
 * its own words instead of the check's name.
 */
export class NotReadyError extends Error {}

/**
 * What failed, in order: "<name> unreachable" for a check that threw or did not answer in time, the message of a
 * NotReadyError.
 */
async function failedReadiness(checks: Record<string, () => Promise<unknown>>): Promise<string[]> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), READINESS_TIMEOUT_MS);
      });
      try {
        await Promise.race([check(), timeout]);
        return undefined;
      } catch (error) {
        return error instanceof NotReadyError ? error.message : `${name} unreachable`;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return results.filter((name): name is string => name !== undefined);
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** NUL and unpaired UTF-16 surrogates are valid JSON and URL text, but PostgreSQL text and jsonb refuse them. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

function hasReadableQuery(url: string): boolean {
  const at = url.indexOf("?");
  if (at < 0) return true;
  try {
    decodeURIComponent(url.slice(at + 1));
    return true;
  } catch {
    return false;
  }
}

function hasUnstorableText(value: unknown): boolean {
  const pending = [value]; // a loop, not recursion: a body may nest thousands of levels deep
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (unstorable(item)) return true;
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (unstorable(key)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/** Whether a route's body schema is TypeBox's `Type.Optional(...)`: the operation takes a body or none. */
const isOptional = (schema: unknown) =>
  isObjectLike(schema) && (schema as Record<symbol, unknown>)[Symbol.for("TypeBox.Optional")] === "Optional";
const isObjectLike = (value: unknown) => value !== null && typeof value === "object";

/** Whether a route's body schema calls for a body: it has one, and it is not optional. */
function requiresBody(schema: unknown): boolean {
  return schema !== undefined && schema !== null && !isOptional(schema);
}

/**
 * An optional body passes when none is sent (fastify hands the validator null for a missing body; a JSON `null`
 * passes too, as for a route that takes none); one that is sent is checked as the schema says.
 */
function optionalBody<F extends ((...args: never[]) => unknown) & { errors?: unknown }>(
  schema: unknown,
  validate: F,
): F {
  if (!isOptional(schema)) return validate;
  const wrapped = ((data: unknown, ...rest: never[]) => {
    if (data === null || data === undefined) {
      wrapped.errors = null;
      return true;
    }
    const valid = validate(...([data, ...rest] as never[]));
    wrapped.errors = validate.errors;
    return valid;
  }) as unknown as F;
  return Object.assign(wrapped, { schemaEnv: (validate as { schemaEnv?: unknown }).schemaEnv });
}

/** Path and query integers must be plain decimals; Ajv's coercion alone also takes "0x10", " 1" or "1e3". */
/** The query of an API route that takes none: any parameter is refused, by name. */
const NO_QUERY = { type: "object", properties: {}, additionalProperties: false } as const;

function strictIntegers<F extends ((...args: never[]) => unknown) & { errors?: unknown }>(
  schema: unknown,
  validate: F,
): F {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const integers = Object.keys(properties).filter((name) => properties[name]?.type === "integer");
  if (integers.length === 0) return validate;
  const wrapped = ((data: Record<string, unknown> | null, ...rest: never[]) => {
    for (const name of integers) {
      const values = ([] as unknown[]).concat(data?.[name] ?? []);
      if (values.some((v) => typeof v === "string" && !/^-?\d+$/.test(v))) {
        wrapped.errors = [{ instancePath: `/${name}`, message: "must be integer", params: {} }];
        return false;
      }
    }
    const valid = validate(...([data, ...rest] as never[]));
    wrapped.errors = validate.errors;
    return valid;
  }) as unknown as F;
  return Object.assign(wrapped, { schemaEnv: (validate as { schemaEnv?: unknown }).schemaEnv });
}

export async function buildHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // A hop count as fastify reads one (its types take only the function): trust the nearest `n` hops.
    ...(typeof options.trustProxy === "number"
      ? { trustProxy: (_address: string, hop: number) => hop < (options.trustProxy as number) }
      : options.trustProxy !== undefined
        ? { trustProxy: options.trustProxy }
        : {}),
    logger: {
      level: options.logLevel,
      // Keys, secrets and signatures never reach the logs, whatever a later serializer adds.
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers["x-api-header"]',
          "req.headers.authorization",
          "*.key",
          "*.secret",
          "*.webhook_secret",
        ],
        censor: "[redacted]",
      },
    },
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    // fastify's own answers to these carry its `{error, message, statusCode}` body: both come in the envelope.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    // A URL the router cannot read (bad percent-encoding, an over-long segment) gets the envelope too.
    frameworkErrors: (error, request, reply) => {
      const appError = toAppError(error);
      (reply as FastifyReply)
        .header("x-request-id", request.id)
        .status(appError.status)
        .send(appError.toBody());
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as HttpApp;

  // Bodies are validated strictly (a string is not a number), and refuse the fields they do not know, naming each
  // one (unknown-fields.ts); query, path and headers arrive as strings and are coerced to the schema's types.
  // removeAdditional stays false: stripping unknown fields would hide a client's typo as surely as ignoring it.
  const ajvOptions = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;
  const bodyAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: false }));
  const paramAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: "array" }));
  // A query's unknown parameters are named as a body's unknown fields are (a typo in `chainid` silently ran on the
  // default chain before).
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === "body"
      ? optionalBody(schema, namingUnknownFields(schema, bodyAjv.compile(schema as object)))
      : httpPart === "querystring"
        ? namingUnknownFields(schema, strictIntegers(schema, paramAjv.compile(schema)))
        : strictIntegers(schema, paramAjv.compile(schema)),
  );
  // Only JSON bodies: without this, fastify's built-in text/plain parser would answer 400 instead of 415.
  app.removeContentTypeParser("text/plain");
  // An empty body with a JSON content type is no body, as without the header, where the route takes none or its
  // body is optional: many clients send `content-type: application/json` on every request, a DELETE included. A
  // route whose body is required still says the body is empty.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if ((body as string).trim() === "" && !requiresBody(request.routeOptions.schema?.body))
      return done(null, undefined);
    parseJson(request, body as string, done);
  });

  // Requests still arriving on kept-alive connections once close() has begun are sent elsewhere.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (closing) {
      const refusal = shuttingDown();
      return reply.status(refusal.status).headers(refusal.headers).send(refusal.body);
    }
  });
  app.addHook("onResponse", async (request, reply) => {
    // Below info (the usual production level is info; benchmarks run at warn) skip building the line at all.
    if (!(request.log as Logger).isLevelEnabled("info")) return;
    const path = request.url.split("?")[0];
    request.log.info(
      { method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      "request",
    );
  });

  // The envelope's message in the request's language; its code, details and status stay as raised.
  const language = options.language;
  const bodyOf = (appError: AppError, lang: string | undefined) => {
    const body = appError.toBody();
    const message = lang ? language?.errorMessage?.(lang, appError) : undefined;
    const details =
      lang && body.details && appError.details
        ? appError.details.map((d) => ({
            path: d.path,
            message: language?.errorDetail?.(lang, d) ?? d.message,
          }))
        : body.details;
    return {
      ...body,
      ...(message === undefined ? {} : { message }),
      ...(details === undefined ? {} : { details }),
    };
  };
  if (language) {
    const hooks = languageHooks(language);
    app.addHook("onRequest", hooks.beforeAuth);
    app.addHook("preValidation", hooks.afterAuth);
    app.addHook("onSend", hooks.onSend);
  }
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500 && !appError.reported) request.log.error({ err: error }, "request failed");
    if (appError.retryAfter !== undefined) reply.header("retry-after", String(appError.retryAfter));
    return reply.status(appError.status).send(bodyOf(appError, request.lang));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const error = new AppError("not_found", `Route ${request.method} ${path} not found`, {
      text: { id: "error.route_not_found", params: { method: request.method, path } },
    });
    return reply.status(404).send(bodyOf(error, request.lang));
  });

  // Fail closed: a route that says nothing about who may call it is a mistake, refused when it is registered (the
  // auth hook would otherwise let it through as public). Only the API documentation's own routes are exempt.
  // A heavy route gets its own rate limit (read by the rate-limit plugin, registered after this hook).
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith("/v1/docs")) return;
    if (route.config?.access === undefined)
      throw new Error(`route ${String(route.method)} ${route.url} declares no access level (config.access)`);
    if (route.config.heavy && options.heavyRateLimitPerMinute)
      (route.config as Record<string, unknown>).rateLimit = {
        max: options.heavyRateLimitPerMinute,
        timeWindow: 60_000,
      };
  });

  // A body's objects refuse the fields they do not list (unknown-fields.ts), however the route's schema was written;
  // the OpenAPI document shows it (`additionalProperties: false`).
  // So does a query: an API route without query parameters declares none, and any given is refused by name.
  app.addHook("onRoute", (route) => {
    if (route.schema?.body !== undefined) route.schema.body = closedBody(route.schema.body);
    if (route.schema?.querystring !== undefined)
      route.schema.querystring = closedBody(route.schema.querystring);
    else if (route.url.startsWith("/v1/") && !route.url.startsWith("/v1/docs") && route.method !== "HEAD")
      route.schema = { ...route.schema, querystring: NO_QUERY };
  });
  // Every parameter and body of the OpenAPI document has an example, so that "Try it out" sends one that works.
  const examples = options.examples;
  if (examples)
    app.addHook("onRoute", (route) => {
      const documented =
        (route.url.startsWith("/v1") && !route.url.startsWith("/v1/docs")) || route.url.startsWith("/auth/");
      if (documented) addExamples(route, examples);
    });

  // Routes whose body is optional (Type.Optional): the OpenAPI document says so, which @fastify/swagger does not
  // (it marks every body schema required), so that a client generated from it may send none.
  const optionalBodies = new Set<string>();
  app.addHook("onRoute", (route) => {
    if (!isOptional(route.schema?.body)) return;
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    for (const method of [route.method].flat()) optionalBodies.add(`${method.toLowerCase()} ${path}`);
  });

  // Every /v1 route documents the error responses it can give.
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/v1") || route.url.startsWith("/v1/docs")) return;
    route.schema ??= {};
    const schema = route.schema;
    schema.response ??= {};
    const response = schema.response as Record<string, unknown>;
    const access = route.config?.access;
    const codes =
      access === "public" ? ["400", "404", "500"] : ["400", "401", "403", "404", "413", "415", "429", "500"];
    for (const code of codes) response[code] ??= ErrorResponse;
    if (access && access !== "public") {
      (schema as { security?: unknown }).security = [{ ApiKey: [] }];
      (schema as Record<string, unknown>)["x-required-role"] = access; // the lowest role allowed
    }
  });

  await app.register(swagger, {
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Record<string, unknown> }).openapiObject;
      const paths = (doc.paths ?? {}) as Record<
        string,
        Record<string, { requestBody?: { required?: boolean } }>
      >;
      for (const [path, methods] of Object.entries(paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          if (operation.requestBody && optionalBodies.has(`${method} ${path}`))
            operation.requestBody.required = false;
        }
      }
      finishDocument(doc, options.examples);
      return doc;
    },
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Vigía API",
        version: "1.0.0",
        description:
          "Open-source compliance and risk analysis for payment providers and crypto exchanges in Latin America. " +
          "Every route needs `x-api-key: ApiKey <key>` unless marked public. Errors use the envelope " +
          "`{success:false, error, message, details?}` (the `Error` schema). The notifications the service sends " +
          "to an integrator are under `webhooks`.",
      },
      servers: [{ url: options.publicUrl }],
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
      components: {
        securitySchemes: {
          ApiKey: {
            type: "apiKey",
            in: "header",
            name: "x-api-key",
            description:
              "Send `x-api-key: ApiKey <key>`: the literal prefix `ApiKey`, one space, then the key " +
              "(`ApiKey vigia_...`); in Authorize, paste the whole value, prefix included. The alias header " +
              "`x-api-header` is accepted; `Authorization` is not read. A key without its prefix answers 401 " +
              "with `details` saying so.",
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/v1/docs", staticCSP: true, ...DOCS_PAGE });

  // Cookies are read (request.cookies) before the auth hook, which looks a session cookie up; no signing secret:
  // a session cookie is a random id, checked against the database.
  await app.register(cookie);
  await app.register(rateLimit, {
    global: true,
    max: options.rateLimitPerMinute,
    timeWindow: 60_000,
    // Per key: its id, once the auth hook (which runs first) has found it, however the header was spelled; per
    // client address for public routes.
    keyGenerator: (request) =>
      request.principal?.userId != null
        ? `u:${request.principal.userId}`
        : request.principal
          ? `k:${request.principal.keyId}`
          : `ip:${request.ip}`,
    // A shared count that cannot be reached lets the request through: the database it needs answers for itself.
    ...(options.sharedRateCounter
      ? { store: sharedRateStore(options.sharedRateCounter), skipOnError: true }
      : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError("rate_limited", `Rate limit of ${context.max} requests per minute exceeded`, {
        retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });

  const failures = options.authFailuresPerMinute
    ? new FailureLimiter(options.authFailuresPerMinute)
    : undefined;
  app.addHook(
    "onRequest",
    authHook(options.authenticate, failures, options.knownValidKey, options.wellFormedKey, options.sessions),
  );
  if (options.metrics) {
    instrumentHttp(app, options.metrics.registry);
    registerMetricsRoute(app as HttpApp, options.metrics);
  }
  app.addHook("preValidation", async (request) => {
    // A query the parser could only read by replacing bytes (percent-encoding that is not UTF-8, a stray `%`)
    // would be answered for a value the client did not send.
    if (!hasReadableQuery(request.url))
      throw new AppError("invalid_request", MESSAGES.invalidQuery, {
        details: [{ path: "/", message: "must be percent-encoded UTF-8 (RFC 3986)" }],
      });
    const parts = [
      [request.body, MESSAGES.invalidBody],
      [request.query, MESSAGES.invalidQuery],
      [request.params, MESSAGES.invalidPath],
    ] as const;
    for (const [value, message] of parts) {
      if (hasUnstorableText(value)) {
        throw new AppError("invalid_request", message, {
          details: [{ path: "/", message: "must not contain NUL characters or unpaired surrogates" }],
        });
      }
    }
    // A route that takes no body has no schema to refuse fields with: a body with any is refused here ({} and
    // null pass, as clients that always send a body send them).
    if (request.routeOptions.schema?.body === undefined) {
      const details = unwantedBody(request.body);
      if (details.length > 0) throw new AppError("invalid_request", MESSAGES.invalidBody, { details });
    }
  });

  app.get(
    "/healthz",
    { config: { access: "public", rateLimit: false }, schema: { hide: true } },
    async () => ({
      status: "ok",
    }),
  );
  app.get(
    "/readyz",
    { config: { access: "public", rateLimit: false }, schema: { hide: true } },
    async (_req, reply) => {
      const failed = await failedReadiness(options.readiness);
      if (failed.length === 0) {
        return { status: "ready", ...(await readinessFactsOf(options.readinessFacts)) };
      }
      reply.header("retry-after", "5");
      return reply.status(503).send(new AppError("unavailable", `Not ready: ${failed.join(", ")}`).toBody());
    },
  );

  await app.register(
    async (v1) => {
      v1.get(
        "/openapi.json",
        { config: { access: "public" }, schema: { hide: true } },
        async () => app.swagger() as unknown as Record<string, unknown>,
      );
      await options.routes(v1 as HttpApp);
    },
    { prefix: "/v1" },
  );
  const session = options.session;
  if (session) await app.register(async (root) => session(root as HttpApp));
  const pages = options.pages;
  if (pages) {
    await app.register(async (root) => {
      root.addHook("onRoute", (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      await pages(root as HttpApp);
    });
  }
  return app;
}
