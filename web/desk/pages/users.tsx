// Usuarios (/app/users, administrators): the people of the project, creating one (with a password, or a
// one-time link to set it), changing a role, disabling an account.
import { useState } from "preact/hooks";
import { call, get } from "../api.ts";
import { useDesk } from "../i18n.ts";
import { type Person, ROLES, type Role } from "../types.ts";
import { ErrorLine, Loading, useLoad } from "../ui.tsx";

export function UsersPage() {
  const d = useDesk();
  const user = d.session!.user;
  const base = `/v1/projects/${user.projectId}/users`;
  const people = useLoad(() => get<Person[]>(base), []);
  const [email, setEmail] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [role, setRole] = useState<Role>("officer");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>(undefined);
  const [link, setLink] = useState("");
  const [busy, setBusy] = useState(false);
  if (user.role !== "admin")
    return <p role="alert">{d.t("error.forbidden", { role: d.t(`desk.role.${user.role}`) })}</p>;

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
      people.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await call<{ setPasswordUrl?: string; link?: string; url?: string }>("POST", base, {
        email: email.trim(),
        displayName: displayName.trim(),
        role,
        ...(password ? { password } : {}),
      });
      setLink(created?.setPasswordUrl ?? created?.link ?? created?.url ?? "");
      setEmail("");
      setDisplayName("");
      setPassword("");
    });
  };

  return (
    <div>
      <h1>{d.t("desk.users.heading")}</h1>
      <ErrorLine error={people.error} />
      {!people.data && !people.error && <Loading />}
      {people.data && (
        <div class="table-wrap">
          <table id="users">
            <thead>
              <tr>
                <th scope="col">{d.t("desk.users.name")}</th>
                <th scope="col">{d.t("desk.login.email")}</th>
                <th scope="col">{d.t("desk.users.role")}</th>
                <th scope="col">{d.t("desk.reports.state")}</th>
                <th scope="col">{d.t("desk.col.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {people.data.map((p) => (
                <tr key={p.id} data-user-id={p.id}>
                  <td>{p.displayName}</td>
                  <td>{p.email}</td>
                  <td>
                    <label>
                      <span class="sr-only">{d.t("desk.users.role_of", { name: p.displayName })}</span>
                      <select
                        value={p.role}
                        disabled={busy || p.id === user.id}
                        onChange={(e) => {
                          const next = e.currentTarget.value;
                          void run(async () => {
                            await call("PATCH", `${base}/${p.id}`, { role: next });
                          });
                        }}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {d.t(`desk.role.${r}`)}
                          </option>
                        ))}
                      </select>
                    </label>
                  </td>
                  <td>
                    {p.disabledAt
                      ? d.t("desk.users.disabled", { at: d.time(p.disabledAt) })
                      : d.t("desk.users.active")}
                  </td>
                  <td>
                    {p.id !== user.id && (
                      <button
                        type="button"
                        class="secondary"
                        disabled={busy}
                        onClick={() =>
                          run(async () => {
                            await call("PATCH", `${base}/${p.id}`, { disabled: !p.disabledAt });
                          })
                        }
                      >
                        {p.disabledAt ? d.t("desk.users.enable") : d.t("desk.users.disable")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section aria-labelledby="new-user-heading">
        <h2 id="new-user-heading">{d.t("desk.users.create_heading")}</h2>
        <form id="user-form" class="inline-form" onSubmit={create}>
          <label>
            {d.t("desk.login.email")}
            <input
              id="user-email"
              type="email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            {d.t("desk.users.name")}
            <input
              id="user-name"
              required
              maxLength={200}
              value={displayName}
              onInput={(e) => setDisplayName(e.currentTarget.value)}
            />
          </label>
          <label>
            {d.t("desk.users.role")}
            <select id="user-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {d.t(`desk.role.${r}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {d.t("desk.users.password")}
            <input
              id="user-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <button type="submit" id="user-create" disabled={busy}>
            {d.t("desk.users.create")}
          </button>
        </form>
        <ErrorLine error={error} />
        {link && (
          <p class="notice" role="status" id="user-link">
            {d.t("desk.users.link")} <code>{link}</code>
          </p>
        )}
      </section>
    </div>
  );
}
