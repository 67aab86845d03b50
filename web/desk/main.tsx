// The compliance officer's pages (/app): one Preact app, routed on the client, signed in by a session cookie.
// Reads the session once, then shows the page of the address under a header with the menu, her language and
// sign-out. An ended session (a 401 from any call) sends her to sign-in, keeping the page she was on.
import { render } from "preact";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { LANGS, type Lang } from "../../src/messages/define.ts";
import { negotiateLang } from "../../src/messages/translate.ts";
import { ApiError, call, get, onSessionExpired, setCsrfToken } from "./api.ts";
import { DEFAULT_ZONE, DeskContext, makeDesk } from "./i18n.ts";
import { AvisoPage } from "./pages/aviso.tsx";
import { CasePage } from "./pages/case.tsx";
import { InboxPage } from "./pages/inbox.tsx";
import { ListsPage } from "./pages/lists.tsx";
import { LoginPage } from "./pages/login.tsx";
import { MatchPage } from "./pages/match.tsx";
import { ReportsPage } from "./pages/reports.tsx";
import { UsersPage } from "./pages/users.tsx";
import { catchLinks, navigate, type Route, useRoute } from "./router.ts";
import { Shell } from "./shell.tsx";
import type { Session } from "./types.ts";

const LOGIN = "/app/login";

function here(): string {
  return location.pathname + location.search;
}

function App() {
  const route = useRoute();
  // undefined: not read yet; null: signed out
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [lang, setLang] = useState<Lang>(() => negotiateLang(null, navigator.languages.join(",")));

  const signedIn = useCallback((s: Session) => {
    setCsrfToken(s.csrfToken);
    setSession(s);
    setLang(s.user.lang);
  }, []);

  useEffect(() => {
    onSessionExpired(() => {
      setSession(null);
      setCsrfToken("");
      if (location.pathname !== LOGIN) navigate(`${LOGIN}?next=${encodeURIComponent(here())}`, true);
    });
    get<Session>("/auth/session")
      .then(signedIn)
      .catch((error: unknown) => {
        setSession(null);
        if (!(error instanceof ApiError) || error.status !== 401) console.warn(error);
        if (location.pathname !== LOGIN) navigate(`${LOGIN}?next=${encodeURIComponent(here())}`, true);
      });
  }, [signedIn]);

  const changeLang = useCallback(
    (next: Lang) => {
      setLang(next);
      if (session)
        call<unknown>("PATCH", "/auth/session/settings", { lang: next })
          .then(() => setSession({ ...session, user: { ...session.user, lang: next } }))
          .catch((error: unknown) => console.warn(error));
    },
    [session],
  );

  const desk = useMemo(
    () => makeDesk(lang, session?.user.timeZone ?? DEFAULT_ZONE, session ?? null, changeLang),
    [lang, session, changeLang],
  );

  useEffect(() => {
    document.documentElement.lang = lang === "es" ? "es-MX" : "en-US";
    document.title = desk.t("desk.title");
  }, [lang, desk]);

  useEffect(() => {
    document.getElementById("app")?.setAttribute("data-status", session === undefined ? "loading" : "ready");
  }, [session]);

  if (session === undefined) return null;
  if (route.path === LOGIN || !session)
    return (
      <DeskContext.Provider value={desk}>
        <LoginPage
          session={session}
          onSignedIn={(s) => {
            signedIn(s);
            const next = route.query.get("next");
            navigate(next?.startsWith("/app") && !next.startsWith(LOGIN) ? next : "/app", true);
          }}
        />
      </DeskContext.Provider>
    );
  return (
    <DeskContext.Provider value={desk}>
      <Shell
        route={route}
        onSignedOut={() => {
          setSession(null);
          setCsrfToken("");
          navigate(LOGIN, true);
        }}
      >
        <PageOf route={route} />
      </Shell>
    </DeskContext.Provider>
  );
}

function PageOf({ route }: { route: Route }) {
  const parts = route.path.split("/").slice(2).map(decodeURIComponent);
  const [first = "", second = ""] = parts;
  switch (first) {
    case "":
      return <InboxPage route={route} />;
    case "cases":
      return <CasePage clientId={second} />;
    case "matches":
      return <MatchPage alertId={second} />;
    case "reports":
      return <ReportsPage />;
    case "lists":
      return <ListsPage />;
    case "avisos":
      return <AvisoPage route={route} />;
    case "users":
      return <UsersPage />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <DeskContext.Consumer>{(d) => <p role="alert">{d.t("desk.page.not_found")}</p>}</DeskContext.Consumer>
  );
}

export const LANG_CHOICES = LANGS;

catchLinks();
const root = document.getElementById("app");
if (root) render(<App />, root);
