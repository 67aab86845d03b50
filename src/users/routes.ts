// HTTP routes of people: signing in and out, the session and its settings, the second factor and the password
// (outside /v1, under /auth, for the browser), and the administration of a project's people (under /v1).
// Thin: parse, authorise (route config), call a verb, shape the answer.
import crypto from "node:crypto";
import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { translate } from "../messages/index.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { type Principal, principalOf, SESSION_COOKIE } from "../platform/http/auth.ts";
import { ProjectParams } from "../platform/http/params.ts";
import { Ok, OkEmpty, ok, RedirectResponse } from "../platform/http/schemas.ts";
import { actorOf } from "../projects/index.ts";
import {
  changePassword,
  createUser,
  enableTotp,
  setPasswordWithLink,
  startTotp,
  updateSettings,
  updateUser,
} from "./accounts.ts";
import type { UsersContext } from "./context.ts";
import { userError } from "./errors.ts";
import { login } from "./login.ts";
import { DEVICE_COOKIE, deviceCookie } from "./login-limiter.ts";
import { finishOidc, OIDC_COOKIE, OIDC_FLOW_MS, startOidc } from "./oidc.ts";
import { findUser, listUsers, type UserRecord } from "./read.ts";
import {
  LoginBody,
  NewUserBody,
  PasswordText,
  SessionSchema,
  SessionUserSchema,
  SettingsBody,
  UserParams,
  UserPatchBody,
  UserSummarySchema,
} from "./schemas.ts";
import { endSession, type NewSession, sessionToken } from "./sessions.ts";

const tags = ["People and sessions"];

const sessionUser = (u: UserRecord) => ({
  id: u.id,
  projectId: u.projectId,
  email: u.email,
  displayName: u.displayName,
  role: u.role,
  lang: u.lang,
  timeZone: u.timeZone,
  totpEnabled: u.totpEnabled,
});

/**
 * The sign-in, sign-out and set-password posts are made without a session, so no CSRF token can guard them: a
 * browser says where a request comes from (Origin, Sec-Fetch-Site), and one from another site is refused. Their
 * bodies are JSON only, which a form of another site cannot send without the browser asking first (CORS), and the
 * cookies are SameSite=Strict.
 */
function sameOrigin(request: FastifyRequest, publicUrl: string): void {
  const site = request.headers["sec-fetch-site"];
  const origin = request.headers.origin;
  if (site === "cross-site")
    throw userError("forbidden", "login.bad_origin", { origin: String(origin ?? site) });
  if (origin === undefined) return;
  const own = `${request.protocol}://${request.host}`;
  if (origin !== own && origin !== new URL(publicUrl).origin)
    throw userError("forbidden", "login.bad_origin", { origin });
}

const personOf = (request: FastifyRequest): Principal & { userId: number } => {
  const principal = principalOf(request);
  if (principal.userId === null) throw userError("unauthorized", "error.not_a_person");
  return principal as Principal & { userId: number };
};

export function registerSessionRoutes(app: HttpApp, ctx: UsersContext): void {
  const secure = (request: FastifyRequest) => request.protocol === "https";

  const setSession = (request: FastifyRequest, reply: FastifyReply, session: NewSession, userId: number) => {
    reply.setCookie(SESSION_COOKIE, session.id, {
      path: "/",
      httpOnly: true,
      sameSite: "strict",
      secure: secure(request),
      maxAge: Math.floor(ctx.sessions.maxMs / 1000),
    });
    // The browser that signed in is known from now on: the e-mail's failure limit no longer applies to it.
    reply.setCookie(DEVICE_COOKIE, deviceCookie(ctx, userId, crypto.randomBytes(16).toString("base64url")), {
      path: "/auth",
      httpOnly: true,
      sameSite: "strict",
      secure: secure(request),
      maxAge: 365 * 86_400,
    });
  };

  app.post(
    "/auth/login",
    {
      config: { access: "public" },
      schema: {
        tags,
        summary: "Sign in with an e-mail and a password (and the TOTP code when the account has one)",
        description:
          "Sets the session cookie `vigia_session` (HttpOnly, SameSite=Strict, Secure over TLS) and answers the person and the session's CSRF token. 401 for a wrong e-mail, password or code alike; 400 `totp_required` when the account has TOTP and no code was sent; 429 with Retry-After after too many failures for the e-mail or the address.",
        body: LoginBody,
        response: {
          200: SessionSchema,
          400: Type.Object({
            success: Type.Literal(false),
            error: Type.String({
              description: "`totp_required`, or `invalid_request` for a body that is not valid",
            }),
            message: Type.String(),
            details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
          }),
        },
      },
    },
    async (request, reply) => {
      sameOrigin(request, ctx.publicUrl);
      const result = await login(ctx, request.body, {
        address: request.ip,
        deviceCookie: request.cookies[DEVICE_COOKIE],
      });
      if (result.kind === "totp_required") {
        return reply.status(400).send({
          success: false as const,
          error: "totp_required",
          message: translate(request.lang === "es" ? "es" : "en", "login.totp_required"),
        });
      }
      setSession(request, reply, result.session, result.user.id);
      return { user: sessionUser(result.user), csrfToken: result.session.csrfToken };
    },
  );

  app.post(
    "/auth/logout",
    {
      config: { access: "public" },
      schema: {
        tags,
        summary: "Sign out: the session ends and its cookie is cleared",
        response: { 200: OkEmpty },
      },
    },
    async (request, reply) => {
      sameOrigin(request, ctx.publicUrl);
      const id = request.cookies[SESSION_COOKIE];
      if (id) await endSession(ctx, id);
      reply.clearCookie(SESSION_COOKIE, {
        path: "/",
        httpOnly: true,
        sameSite: "strict",
        secure: secure(request),
      });
      return { success: true as const };
    },
  );

  app.get(
    "/auth/session",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The person signed in and the session's CSRF token",
        response: { 200: SessionSchema },
      },
    },
    async (request) => {
      const person = personOf(request);
      const user = await findUser(ctx.db, person.projectId, person.userId);
      const csrfToken = await sessionToken(ctx, request.cookies[SESSION_COOKIE] ?? "");
      if (!user || !csrfToken) throw userError("unauthorized", "error.session_ended");
      return { user: sessionUser(user), csrfToken };
    },
  );

  app.patch(
    "/auth/session/settings",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "The person's own language and time zone",
        body: SettingsBody,
        response: { 200: Type.Object({ user: SessionUserSchema }) },
      },
    },
    async (request) => {
      const person = personOf(request);
      const user = await updateSettings(
        ctx,
        { id: person.userId, projectId: person.projectId },
        request.body,
      );
      return { user: sessionUser(user) };
    },
  );

  app.post(
    "/auth/totp/setup",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Start two-step sign-in: a new TOTP secret and its otpauth:// URI (for a QR code)",
        response: { 200: Type.Object({ secret: Type.String(), uri: Type.String() }) },
      },
    },
    async (request) => {
      const person = personOf(request);
      const user = await findUser(ctx.db, person.projectId, person.userId);
      if (!user) throw userError("unauthorized", "error.session_ended");
      return startTotp(ctx, user);
    },
  );

  app.post(
    "/auth/totp/enable",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Turn two-step sign-in on with a code of the secret set up",
        body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 12 }) }),
        response: { 200: OkEmpty },
      },
    },
    async (request) => {
      const person = personOf(request);
      const user = await findUser(ctx.db, person.projectId, person.userId);
      if (!user) throw userError("unauthorized", "error.session_ended");
      await enableTotp(ctx, user, request.body.code);
      return { success: true as const };
    },
  );

  app.post(
    "/auth/password",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Change one's own password (the person's other sessions end)",
        body: Type.Object({ current: PasswordText, next: PasswordText }),
        response: { 200: OkEmpty },
      },
    },
    async (request) => {
      const person = personOf(request);
      await changePassword(
        ctx,
        { id: person.userId, projectId: person.projectId },
        request.body.current,
        request.body.next,
        request.cookies[SESSION_COOKIE],
      );
      return { success: true as const };
    },
  );

  app.post(
    "/auth/password/set",
    {
      config: { access: "public" },
      schema: {
        tags,
        summary: "Set a password with the token of a one-time set-password link",
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: PasswordText }),
        response: { 200: OkEmpty },
      },
    },
    async (request) => {
      sameOrigin(request, ctx.publicUrl);
      await setPasswordWithLink(ctx, request.body.token, request.body.password);
      return { success: true as const };
    },
  );

  app.get(
    "/auth/oidc",
    {
      config: { access: "public" },
      schema: {
        tags,
        summary: "Whether sign-in with an identity provider (OpenID Connect) is on, and the provider's name",
        response: {
          200: Type.Object({ enabled: Type.Boolean(), name: Type.Union([Type.String(), Type.Null()]) }),
        },
      },
    },
    async () => ({ enabled: ctx.oidc !== undefined, name: ctx.oidc?.name ?? null }),
  );

  app.get(
    "/auth/oidc/start",
    {
      config: { access: "public" },
      schema: {
        tags,
        summary: "Start signing in with the identity provider: a redirect to it",
        response: {
          302: RedirectResponse(
            "To the identity provider's authorization endpoint, with a flow cookie (no body)",
            "the provider's authorization URL (state, nonce and PKCE challenge in its query)",
          ),
        },
      },
    },
    async (request, reply) => {
      const { url, cookie } = await startOidc(ctx);
      // Lax, not Strict: the provider sends the browser back with a top-level navigation from its own site.
      reply.setCookie(OIDC_COOKIE, cookie, {
        path: "/auth/oidc",
        httpOnly: true,
        sameSite: "lax",
        secure: secure(request),
        maxAge: Math.floor(OIDC_FLOW_MS / 1000),
      });
      return reply.redirect(url, 302);
    },
  );

  app.get(
    "/auth/oidc/callback",
    {
      config: { access: "public" },
      schema: {
        tags,
        summary:
          "Where the identity provider sends the browser back: the session cookie and a redirect to /app",
        description:
          "A refusal (no account with the e-mail, an unverified e-mail, a flow that failed) redirects to `/app/login#error=<message id>` instead, with the message's parameters beside it (`&email=...` for `oidc.no_account`), so the sign-in page says why.",
        response: {
          302: RedirectResponse(
            "Signed in: to the officer's pages with the session cookie; refused: to the sign-in page (no body)",
            "`/app`, or `/app/login#error=<message id>` on a refusal",
          ),
        },
      },
    },
    async (request, reply) => {
      const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
      reply.clearCookie(OIDC_COOKIE, { path: "/auth/oidc" });
      try {
        const result = await finishOidc(ctx, query, request.cookies[OIDC_COOKIE]);
        setSession(request, reply, result.session, result.user.id);
        return reply.redirect("/app", 302);
      } catch (error) {
        const text = (error as { text?: { id?: string; params?: Record<string, string | number> } }).text;
        const id = text?.id ?? "oidc.failed";
        request.log.info({ reason: id }, "an OpenID Connect sign-in was refused");
        const said = new URLSearchParams({ error: id });
        for (const [k, v] of Object.entries(text?.params ?? {})) said.set(k, String(v));
        return reply.redirect(`/app/login#${said}`, 302);
      }
    },
  );
}

export function registerUserRoutes(app: HttpApp, ctx: UsersContext): void {
  const v1tags = ["People"];
  app.get(
    "/projects/:projectId/users",
    {
      config: { access: "viewer" },
      schema: {
        tags: v1tags,
        summary: "The project's people (for assignee lists), disabled ones included",
        params: ProjectParams,
        response: { 200: Ok(Type.Array(UserSummarySchema)) },
      },
    },
    async (request) => ok(await listUsers(ctx.db, request.params.projectId)),
  );

  app.post(
    "/projects/:projectId/users",
    {
      config: { access: "admin" },
      schema: {
        tags: v1tags,
        summary: "Create a person's account",
        description:
          "Without `password`, the answer carries `setPasswordUrl`: a one-time link (72 h) the person opens to choose one. A password must have at least 15 characters, not be a common or leaked one, nor contain the e-mail or the name.",
        params: ProjectParams,
        body: NewUserBody,
        response: {
          201: Ok(Type.Object({ user: UserSummarySchema, setPasswordUrl: Type.Optional(Type.String()) })),
        },
      },
    },
    async (request, reply) => {
      const { user, setPasswordUrl } = await createUser(
        ctx,
        request.params.projectId,
        request.body,
        actorOf(principalOf(request)),
      );
      const summary = {
        id: user.id,
        email: user.email,
        displayName: user.displayName,
        role: user.role,
        disabledAt: user.disabledAt,
      };
      return reply.status(201).send(ok({ user: summary, ...(setPasswordUrl ? { setPasswordUrl } : {}) }));
    },
  );

  app.patch(
    "/projects/:projectId/users/:userId",
    {
      config: { access: "admin" },
      schema: {
        tags: v1tags,
        summary: "Change a person's role or name, or disable the account (its sessions end at once)",
        params: UserParams,
        body: UserPatchBody,
        response: { 200: Ok(UserSummarySchema) },
      },
    },
    async (request) => {
      const user = await updateUser(
        ctx,
        request.params.projectId,
        request.params.userId,
        request.body,
        actorOf(principalOf(request)),
      );
      return ok({
        id: user.id,
        email: user.email,
        displayName: user.displayName,
        role: user.role,
        disabledAt: user.disabledAt,
      });
    },
  );
}
