// The pages' addresses: history.pushState under /app, links caught on click so that moving between pages keeps
// the session, and a hook that re-renders on a move (and on the browser's back and forward).
import { useEffect, useState } from "preact/hooks";

export interface Route {
  path: string;
  query: URLSearchParams;
}

const current = (): Route => ({
  path: location.pathname.replace(/\/+$/, "") || "/",
  query: new URLSearchParams(location.search),
});
const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return route;
}

/** Links inside the app move without a page load; others (the graph viewer, downloads) load as usual. */
export function catchLinks(): void {
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const link = (event.target as Element).closest?.("a[data-internal]");
    if (!(link instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    navigate(link.pathname + link.search);
  });
}
