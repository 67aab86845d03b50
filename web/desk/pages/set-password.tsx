// Choosing a password from a one-time link (/app/login#set-password=<token>): the link an administrator gave a new
// person, or a lost password's. The token stays in the fragment (never in a request line) and leaves the address
// as soon as it is read; the password is typed twice. The service checks its rules (length, common passwords,
// the person's own name or e-mail) and answers why in her language; once set, she signs in with it.
import { useState } from "preact/hooks";
import { call } from "../api.ts";
import { useDesk } from "../i18n.ts";
import { errorText } from "../ui.tsx";

/** The link's token, taken out of the address (a reload or a shared screen does not show it again). */
export function takeLinkToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("set-password");
  if (!token) return null;
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return token;
}

export function SetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const d = useDesk();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (password !== again) {
      setError(d.t("desk.password.mismatch"));
      return;
    }
    setBusy(true);
    setError("");
    try {
      await call("POST", "/auth/password/set", { token, password });
      onDone();
    } catch (e) {
      setError(errorText(d, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id="set-password-form" onSubmit={submit} aria-labelledby="set-password-heading">
      <h1 id="set-password-heading">{d.t("desk.password.heading")}</h1>
      <p class="hint">{d.t("desk.password.hint")}</p>
      <label>
        {d.t("desk.password.new")}
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          minLength={15}
          maxLength={128}
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <label>
        {d.t("desk.password.repeat")}
        <input
          id="new-password-again"
          type="password"
          autoComplete="new-password"
          required
          value={again}
          onInput={(e) => setAgain(e.currentTarget.value)}
        />
      </label>
      {error && (
        <p class="error" role="alert" id="set-password-error">
          {error}
        </p>
      )}
      <button type="submit" id="set-password-submit" disabled={busy}>
        {d.t("desk.password.submit")}
      </button>
    </form>
  );
}
