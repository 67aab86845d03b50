// A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for the sign-in tests: one confidential client,
// `vigia`, allowed to send the browser back to `redirect`, code flow with PKCE, and the given accounts (any
// password signs one in at the provider's own development forms). Nothing here leaves this machine.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export const OIDC_CLIENT = { id: "vigia", secret: "a test client secret that is long enough" } as const;

export interface TestProvider {
  issuer: string;
  close(): void;
}

export async function startOidcProvider(
  redirect: string,
  accounts: Record<string, { email: string; email_verified: boolean }>,
): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const oidc = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [redirect],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    findAccount: async (_ctx, id) => {
      const account = accounts[id];
      return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined;
    },
    cookies: { keys: ["a cookie key for the test provider"] },
    pkce: { required: () => true },
  });
  server.on("request", oidc.callback());
  return { issuer, close: () => server.close() };
}

/** The service's settings for that provider, named `name` on the sign-in page. */
export const oidcEnv = (provider: TestProvider, redirect: string, name: string) => ({
  VIGIA_OIDC_ISSUER: provider.issuer,
  VIGIA_OIDC_CLIENT_ID: OIDC_CLIENT.id,
  VIGIA_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
  VIGIA_OIDC_REDIRECT_URL: redirect,
  VIGIA_OIDC_NAME: name,
});
