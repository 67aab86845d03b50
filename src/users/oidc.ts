// Signing in through a company's OpenID Connect provider (openid-client): the authorization code flow with PKCE,
// state and nonce. The provider proves who the person is; this service decides whether they may come in: only an
// account that already exists with the provider's verified e-mail signs in (no sign-up through the provider), into
// the project that account belongs to. What the flow must remember between the start and the callback (state,
// nonce, PKCE verifier) travels sealed with the server secret in a short-lived cookie, so any process of a fleet
// can finish a flow another started.
import * as client from "openid-client";
import { seal, unseal } from "../platform/crypto/secrets.ts";
import { AppError } from "../platform/errors.ts";
import type { UsersContext } from "./context.ts";
import { userError } from "./errors.ts";
import { accountByEmail, type LoginResult, signedIn } from "./login.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUrl: string;
  /** the claim that holds the e-mail (`email` unless the provider names it otherwise) */
  emailClaim: string;
  /** the provider's name shown on the sign-in page's button */
  name: string;
}

export const OIDC_COOKIE = "vigia_oidc";
/** How long a started sign-in may take at the provider. */
export const OIDC_FLOW_MS = 10 * 60_000;

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  at: number;
}

const configs = new Map<string, Promise<client.Configuration>>();

/** The provider's configuration, discovered once per process (again after a failure). */
function configurationOf(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer}\u0000${settings.clientId}`;
  let found = configs.get(key);
  if (!found) {
    const issuer = new URL(settings.issuer);
    // Plain HTTP only for a provider on this machine (a test's, a developer's); anywhere else it must be HTTPS.
    const local =
      issuer.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(issuer.hostname);
    found = client.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret,
      undefined,
      local ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    found.catch(() => configs.delete(key));
    configs.set(key, found);
  }
  return found;
}

/** Where to send the browser, and the sealed cookie that remembers the flow. */
export async function startOidc(ctx: UsersContext): Promise<{ url: string; cookie: string }> {
  const settings = ctx.oidc;
  if (!settings) throw userError("not_found", "oidc.disabled");
  // A provider that cannot be reached or read is said with the reason (the operator's setting to check).
  const config = await configurationOf(settings).catch((error: Error) => {
    const refusal = userError("unavailable", "oidc.failed");
    throw new AppError("unavailable", refusal.message, {
      ...(refusal.text ? { text: refusal.text } : {}),
      details: [{ path: "VIGIA_OIDC_ISSUER", message: `the provider's discovery failed: ${error.message}` }],
    });
  });
  const flow: Flow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    at: ctx.now(),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: settings.redirectUrl,
    scope: "openid email profile",
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return { url: url.href, cookie: seal(ctx.serverKeys, JSON.stringify(flow)) };
}

/** Finishes a flow at the callback: the person's session, or a clear refusal. */
export async function finishOidc(
  ctx: UsersContext,
  callbackQuery: string,
  sealedFlow: string | undefined,
): Promise<LoginResult & { kind: "signed_in" }> {
  const settings = ctx.oidc;
  if (!settings) throw userError("not_found", "oidc.disabled");
  let flow: Flow;
  try {
    flow = JSON.parse(unseal(ctx.serverKeys, sealedFlow ?? "")) as Flow;
  } catch {
    throw userError("invalid_request", "oidc.failed");
  }
  if (ctx.now() - flow.at > OIDC_FLOW_MS) throw userError("invalid_request", "oidc.failed");
  const config = await configurationOf(settings);
  const current = new URL(settings.redirectUrl);
  current.search = callbackQuery;
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
    // A provider that keeps the e-mail out of the ID token gives it at the userinfo endpoint.
    if (claims[settings.emailClaim] === undefined && typeof claims.sub === "string")
      claims = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)) };
  } catch {
    throw userError("invalid_request", "oidc.failed");
  }
  const email = claims[settings.emailClaim];
  if (typeof email !== "string" || email === "") throw userError("forbidden", "oidc.unverified");
  // The standard claim says whether the provider verified the address; a custom claim is the provider's own word.
  if (settings.emailClaim === "email" && claims.email_verified !== true)
    throw userError("forbidden", "oidc.unverified");
  const account = await accountByEmail(ctx, email);
  if (!account || account.disabled_at !== null) throw userError("forbidden", "oidc.no_account", { email });
  return signedIn(ctx, account.project_id, account.id, "oidc");
}
