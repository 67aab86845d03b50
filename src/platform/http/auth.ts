// Authentication and authorisation of /v1 routes: an API key in the `x-api-key: ApiKey <key>` header (and its
// `x-api-header` alias) for machines, or a person's session cookie (`vigia_session`) for the browser; a role ladder
// viewer < developer < officer < admin, and project scoping. What a key or a session is and where they live is not
// known here: the caller passes an Authenticator and a SessionResolver.
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import { AppError, type ErrorDetail, MESSAGES } from "../errors.ts";
import type { FailureLimiter } from "./failure-limiter.ts";

export const ROLES = ["viewer", "developer", "officer", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const roleRank = (role: Role) => ROLES.indexOf(role);
export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

/**
 * Who a request is made by: a key (`keyId`, `userId` null) or a person signed in (`userId`, `keyId` null), with the
 * person's own language and time zone.
 */
export interface Principal {
  projectId: number;
  role: Role;
  keyId: number | null;
  userId: number | null;
  lang?: "es" | "en";
  timeZone?: string;
}

/** Resolves a presented key to its principal, or undefined for an unknown or revoked key. */
export type Authenticator = (key: string) => Promise<Principal | undefined>;

/** The cookie a signed-in browser sends (HttpOnly, SameSite=Strict; set by the sign-in routes). */
export const SESSION_COOKIE = "vigia_session";
/** The header that must carry the session's token on every request by cookie other than GET and HEAD. */
export const CSRF_HEADER = "x-csrf-token";

/** A session's principal and the token its writes must carry. */
export interface SessionPrincipal extends Principal {
  csrfToken: string;
}

/** Resolves a session cookie's value to its principal, or undefined for an unknown, ended or revoked session. */
export type SessionResolver = (sessionId: string) => Promise<SessionPrincipal | undefined>;

/** Methods that change nothing, which a session may use without its CSRF token. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const value = (request as { cookies?: Record<string, string | undefined> }).cookies?.[name];
  return value && value.length <= 200 ? value : undefined;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/**
 * The principal of a request made with a session cookie and no key header: undefined when there is no such cookie;
 * a 401 for a session that ended, a 403 for a write without the session's CSRF token.
 */
async function sessionPrincipal(
  request: FastifyRequest,
  sessions: SessionResolver | undefined,
): Promise<Principal | undefined> {
  if (
    !sessions ||
    request.headers["x-api-key"] !== undefined ||
    request.headers["x-api-header"] !== undefined
  )
    return undefined;
  const sessionId = cookieOf(request, SESSION_COOKIE);
  if (sessionId === undefined) return undefined;
  const session = await sessions(sessionId);
  if (!session)
    throw new AppError("unauthorized", "Your session has ended or is not valid: sign in again", {
      text: { id: "error.unauthorized" },
    });
  if (!SAFE_METHODS.has(request.method)) {
    const raw = request.headers[CSRF_HEADER];
    const token = Array.isArray(raw) ? raw[0] : raw;
    if (typeof token !== "string" || !sameText(token, session.csrfToken))
      throw new AppError(
        "forbidden",
        `A request signed in by cookie that changes something must send the session's token in the header \`${CSRF_HEADER}\` (the csrfToken of GET /auth/session)`,
        { text: { id: "error.csrf" } },
      );
  }
  const { csrfToken: _token, ...principal } = session;
  return principal;
}

/** `public` routes need no key; others name the lowest role allowed. */
export type RouteAccess = Role | "public";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** A route whose request does heavy work (an analysis, a report): it has its own, lower rate limit. */
    heavy?: boolean;
    /** Client addresses that may call the route without a key (the operator's Prometheus, for /metrics). */
    trustedAddress?: (address: string) => boolean;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

const PREFIX = "ApiKey ";

/** The key of a request, or undefined when the header is missing or lacks the mandatory prefix. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const raw = request.headers["x-api-key"] ?? request.headers["x-api-header"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string" || !value.startsWith(PREFIX)) return undefined;
  const key = value.slice(PREFIX.length).trim();
  return key.length > 0 && key.length <= 200 ? key : undefined;
}

/**
 * What is wrong with the form of the key header, said in the 401's `details` so that a client sending its key
 * without the mandatory prefix learns how to fix it; undefined for a well-formed header (a wrong, unknown or revoked
 * key gets no detail: the answer never tells which keys exist).
 */
export function keyHeaderProblem(request: FastifyRequest): ErrorDetail | undefined {
  const [name, raw] =
    request.headers["x-api-key"] !== undefined
      ? ["x-api-key", request.headers["x-api-key"]]
      : ["x-api-header", request.headers["x-api-header"]];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const path = `headers/${name}`;
  // The usual place for credentials, but not this API's (the contract's header is x-api-key): say where it goes.
  if (value === undefined && request.headers.authorization !== undefined)
    return {
      path: "headers/authorization",
      message: "the key goes in the header `x-api-key`, not Authorization: send `x-api-key: ApiKey <key>`",
    };
  if (value === undefined || value.trim() === "")
    return {
      path: "headers/x-api-key",
      message: "no key was sent: send the header `x-api-key: ApiKey <key>`",
    };
  if (!value.startsWith(PREFIX))
    return {
      path,
      message: `the key must follow the prefix \`ApiKey \` (the word ApiKey and one space): \`${name}: ApiKey <key>\``,
    };
  if (value.slice(PREFIX.length).trim() === "")
    return { path, message: `no key after the prefix: \`${name}: ApiKey <key>\`` };
  return undefined;
}

function requestedProjectId(request: FastifyRequest): string | undefined {
  const fromPath = (request.params as Record<string, unknown> | undefined)?.projectId;
  if (fromPath !== undefined) return String(fromPath);
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.projectId;
  if (fromQuery !== undefined) return String(Array.isArray(fromQuery) ? fromQuery[0] : fromQuery);
  return undefined;
}

/**
 * The auth hook. An address with too many failed authentications in the last minute (`failures`) is refused before
 * its key is looked up, unless `knownValid` says the key was valid at its last lookup (the authenticator's cache of
 * real keys) or the key is one of the window's few probes (failure-limiter.ts): a guesser sharing a customer's
 * address (a NAT, a balancer without VIGIA_TRUST_PROXY) cannot lock the customer out, even after a restart, and the
 * limit still bounds lookups, since a guessed key is never known and probes are few. Only 401s count against the
 * address: a 403 is a valid key asking for more than it may, not a guess, and counting it would let one customer's
 * misconfigured client lock out the others behind its address.
 */
export function authHook(
  authenticate: Authenticator,
  failures?: FailureLimiter,
  knownValid?: (key: string) => boolean,
  wellFormed: (key: string) => boolean = () => true,
  sessions?: SessionResolver,
) {
  return async function authorise(request: FastifyRequest): Promise<void> {
    const { access, trustedAddress } = request.routeOptions.config;
    if (access === undefined || access === "public" || trustedAddress?.(request.ip)) return;
    // A person's session: a random id of 256 bits, looked up by its digest, so a guessed cookie costs one index
    // read and is never worth limiting the address for (which would lock out the people behind it).
    const person = await sessionPrincipal(request, sessions);
    if (person) {
      admit(person, access, request);
      return;
    }
    const address = request.ip;
    const key = presentedKey(request);
    const wait = failures?.blockedFor(address) ?? 0;
    const limited = () =>
      new AppError(
        "rate_limited",
        `Too many failed authentications from this address: limit of ${failures?.maxPerWindow} per minute`,
        {
          retryAfter: wait,
          text: { id: "error.auth_limited", params: { max: failures?.maxPerWindow ?? 0 } },
        },
      );
    // A limited address's key is looked up only when known valid, or as one of the window's few probes (a valid
    // key new to this process: after a restart, every key is); a key that can't be real takes no probe.
    if (
      wait > 0 &&
      !(key !== undefined && (knownValid?.(key) || (wellFormed(key) && failures?.probe(address, key))))
    )
      throw limited();
    const principal = key === undefined ? undefined : await authenticate(key);
    if (!principal) {
      failures?.fail(address);
      // A probe that found no key answers as the limit does: the address is still limited.
      if (wait > 0) throw limited();
      const detail = keyHeaderProblem(request);
      throw new AppError("unauthorized", MESSAGES.invalidKey, detail ? { details: [detail] } : {});
    }
    admit(principal, access, request);
  };
}

/** Scopes a principal to its project and checks its role against the route's, then sets it on the request. */
function admit(principal: Principal, access: Role, request: FastifyRequest): void {
  // Another project's resource first, and saying nothing more: the role a route needs is told only of the
  // principal's own project.
  // The caller learns which project its own key (or account) belongs to, which it may know, and nothing of the
  // other: whether it exists reads the same.
  const projectId = requestedProjectId(request);
  if (projectId !== undefined && projectId !== String(principal.projectId)) {
    const who = principal.userId !== null ? "your account" : "this key";
    throw new AppError(
      "forbidden",
      `Forbidden: ${who} belongs to project ${principal.projectId} and reaches only its resources, not those of project ${projectId}`,
      {
        text: {
          id: "error.forbidden_project",
          params: {
            own: principal.projectId,
            asked: projectId,
            who: principal.userId !== null ? "user" : "key",
          },
        },
      },
    );
  }
  if (roleRank(principal.role) < roleRank(access)) {
    const whose = principal.userId !== null ? "your" : "this key's";
    throw new AppError(
      "forbidden",
      `Forbidden: this action needs ${principal.userId !== null ? "the" : "a key of"} role ${access}${access === "admin" ? "" : " or above"}; ${whose} role is ${principal.role}`,
      { text: { id: "error.forbidden_role", params: { needed: access, role: principal.role } } },
    );
  }
  request.principal = principal;
}

/** The principal of an authenticated route (the hook guarantees it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError("unauthorized", MESSAGES.invalidKey);
  return request.principal;
}
