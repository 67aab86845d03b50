// Sign-in (/app/login): e-mail and password, then the authenticator's code when the account has one; the
// company's identity provider when the service has one configured. Wrong password or code get one answer. A
// sign-in through the provider that the service refused comes back here as #error=oidc.<why> (and the message's
// parameters), said in words. A one-time link to choose a password (#set-password=<token>) opens its form first.
import { useEffect, useState } from "preact/hooks";
import { ApiError, call, get } from "../api.ts";
import { type Desk, useDesk } from "../i18n.ts";
import type { Session } from "../types.ts";
import { errorText } from "../ui.tsx";
import { SetPasswordForm, takeLinkToken } from "./set-password.tsx";

const PROVIDER_REFUSALS = ["oidc.no_account", "oidc.unverified", "oidc.failed", "oidc.disabled"] as const;

/** Why the identity provider's sign-in was refused, from the address the service sent her back to; else "". */
function providerRefusal(d: Desk): string {
  const said = new URLSearchParams(window.location.hash.slice(1));
  const id = PROVIDER_REFUSALS.find((r) => r === said.get("error"));
  if (id === undefined) return "";
  // Read once: a reload of the page does not say it again.
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return d.t(id, { email: said.get("email") ?? "—" });
}

export function LoginPage({
  session,
  onSignedIn,
}: {
  session: Session | null;
  onSignedIn: (s: Session) => void;
}) {
  const d = useDesk();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [totp, setTotp] = useState("");
  const [askTotp, setAskTotp] = useState(false);
  const [error, setError] = useState(() => providerRefusal(d));
  const [busy, setBusy] = useState(false);
  const [oidc, setOidc] = useState<{ enabled: boolean; name?: string } | null>(null);
  // A one-time link to choose a password opens this page with its token; once set, the page is sign-in again.
  const [linkToken, setLinkToken] = useState(takeLinkToken);
  const [passwordSet, setPasswordSet] = useState(false);

  useEffect(() => {
    if (session) onSignedIn(session);
  }, [session]);
  useEffect(() => {
    get<{ enabled: boolean; name?: string }>("/auth/oidc")
      .then(setOidc)
      .catch(() => setOidc(null));
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      await call("POST", "/auth/login", { email, password, ...(askTotp ? { totp } : {}) });
      onSignedIn(await get<Session>("/auth/session"));
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && /totp/.test(e.code)) {
        setAskTotp(true);
        setError("");
      } else if (e instanceof ApiError && e.status === 401) setError(d.t("desk.login.wrong"));
      else if (e instanceof ApiError && e.status === 429) setError(d.t("desk.login.limited"));
      else setError(errorText(d, e));
    } finally {
      setBusy(false);
    }
  };

  if (linkToken)
    return (
      <main id="main" class="login">
        <SetPasswordForm
          token={linkToken}
          onDone={() => {
            setLinkToken(null);
            setPasswordSet(true);
          }}
        />
      </main>
    );

  return (
    <main id="main" class="login">
      <form id="login-form" onSubmit={submit} aria-labelledby="login-heading">
        <h1 id="login-heading">{d.t("desk.login.heading")}</h1>
        {passwordSet && (
          <p class="notice" role="status" id="password-set">
            {d.t("desk.password.done")}
          </p>
        )}
        <p class="hint">{d.t("desk.login.hint")}</p>
        <label>
          {d.t("desk.login.email")}
          <input
            id="login-email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          {d.t("desk.login.password")}
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {askTotp && (
          <label>
            {d.t("desk.login.totp")}
            <input
              id="login-totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              required
              value={totp}
              onInput={(e) => setTotp(e.currentTarget.value)}
            />
          </label>
        )}
        {error && (
          <p class="error" role="alert" id="login-error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {d.t("desk.login.submit")}
        </button>
        {oidc?.enabled && (
          <p>
            <a class="button secondary" id="login-oidc" href="/auth/oidc/start">
              {d.t("desk.login.oidc", { provider: oidc.name ?? "OIDC" })}
            </a>
          </p>
        )}
      </form>
    </main>
  );
}
