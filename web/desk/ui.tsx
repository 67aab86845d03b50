// Small pieces every page uses: an error line that says what to do, a loading line, a definition list, badges
// for levels and states, and the hook that loads something and reloads it on demand.
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "./api.ts";
import { type Desk, useDesk } from "./i18n.ts";

/** A failure in words: the service's own message when it gave one, else the catalog's text for its code. */
export function errorText(d: Desk, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === "forbidden")
      return d.t("error.forbidden", { role: d.t(`desk.role.${d.session?.user.role ?? "viewer"}`) });
    // A refused form: the service's message, in her language, says what to fix.
    if (error.code === "invalid_request")
      return error.message || d.t("error.invalid_request", { message: "—" });
    const generic = d.label("error", error.code);
    if (error.message && d.lang === "en") return error.message;
    // The service's message is in the language it was asked; a generic line first, then its detail.
    return error.message && generic !== error.code ? `${generic} ${error.message}` : error.message || generic;
  }
  // A message the page itself wrote (already in her language).
  if (error instanceof Error && error.message) return error.message;
  return d.t("error.network");
}

export function ErrorLine({ error }: { error: unknown }) {
  const d = useDesk();
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(d, error)}
    </p>
  );
}

export function Loading() {
  const d = useDesk();
  return (
    <p class="loading" aria-live="polite">
      {d.t("desk.loading")}
    </p>
  );
}

export function Badge({ kind, value }: { kind: "level" | "status" | "verdict" | "state"; value: string }) {
  const d = useDesk();
  const prefix =
    kind === "level"
      ? "desk.level"
      : kind === "status"
        ? "desk.status"
        : kind === "verdict"
          ? "desk.verdict"
          : "desk.state";
  return <span class={`badge ${kind}-${value}`}>{d.label(prefix, value)}</span>;
}

export function Fields({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="fields">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Loads with `load` when `deps` change; `reload()` loads again keeping what is shown meanwhile. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load()
      .then((value) => {
        if (!live) return;
        setData(value);
        setError(undefined);
      })
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data, error, reload, setData };
}

export const short = (address: string) =>
  address.length > 16 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
