// The frame of every page once signed in: the menu (only the pages her role may use), her name, the language
// selector (saved to her account) and sign-out.
import type { ComponentChildren } from "preact";
import { LANGS, type Lang } from "../../src/messages/define.ts";
import { call } from "./api.ts";
import { useDesk } from "./i18n.ts";
import type { Route } from "./router.ts";
import { atLeast } from "./types.ts";

export function Shell({
  route,
  onSignedOut,
  children,
}: {
  route: Route;
  onSignedOut: () => void;
  children: ComponentChildren;
}) {
  const d = useDesk();
  const user = d.session?.user;
  if (!user) return null;
  const items = [
    {
      href: "/app",
      label: d.t("desk.menu.inbox"),
      active: route.path === "/app" && !route.query.get("cause"),
    },
    {
      href: "/app?cause=person_match",
      label: d.t("desk.menu.matches"),
      active:
        route.path.startsWith("/app/matches") ||
        (route.path === "/app" && route.query.get("cause") === "person_match"),
    },
    { href: "/app/cases", label: d.t("desk.menu.cases"), active: route.path.startsWith("/app/cases") },
    { href: "/app/reports", label: d.t("desk.menu.reports"), active: route.path.startsWith("/app/reports") },
    { href: "/app/lists", label: d.t("desk.menu.lists"), active: route.path.startsWith("/app/lists") },
    ...(atLeast(user.role, "officer")
      ? [
          {
            href: "/app/avisos/new",
            label: d.t("desk.menu.aviso"),
            active: route.path.startsWith("/app/avisos"),
          },
        ]
      : []),
    ...(user.role === "admin"
      ? [{ href: "/app/users", label: d.t("desk.menu.users"), active: route.path.startsWith("/app/users") }]
      : []),
  ];
  const signOut = async () => {
    await call("POST", "/auth/logout", {}).catch(() => {});
    onSignedOut();
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        {d.t("desk.skip")}
      </a>
      <header class="top">
        <span class="brand">Vigía</span>
        <nav aria-label={d.t("desk.menu.label")}>
          <ul class="menu">
            {items.map((i) => (
              <li key={i.href}>
                <a href={i.href} data-internal aria-current={i.active ? "page" : undefined}>
                  {i.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span id="desk-user" title={user.email}>
            {d.t("desk.user.signed_in_as", { name: user.displayName, role: d.t(`desk.role.${user.role}`) })}
          </span>
          <label>
            <span class="sr-only">{d.t("desk.lang.label")}</span>
            <select id="lang" value={d.lang} onChange={(e) => d.setLang(e.currentTarget.value as Lang)}>
              {LANGS.map((l) => (
                <option key={l} value={l}>
                  {d.t(`desk.lang.${l}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" id="sign-out" onClick={signOut}>
            {d.t("desk.sign_out")}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
