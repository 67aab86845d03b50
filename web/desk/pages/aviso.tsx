// Aviso (/app/avisos/new): raising a 24-hour aviso of a client, from an alert (?alert=ID: its client, the alert
// and its transfers filled in) or from a client (?client=ID). The ground from Mexico's catalog, the facts in her
// words; the answer gives the reference and the deadline as the law states it.
import { useEffect, useState } from "preact/hooks";
import { call, get } from "../api.ts";
import { useDesk } from "../i18n.ts";
import type { Route } from "../router.ts";
import { type Alert, type Aviso, atLeast } from "../types.ts";
import { ErrorLine } from "../ui.tsx";

/** Mexico's grounds for an officer's own aviso (src/jurisdictions/mx/known-avisos.ts). */
const BASES = ["behaviour", "adverse-information", "listed-person", "attempt"] as const;
const MEXICO_CITY = "America/Mexico_City";

export function AvisoPage({ route }: { route: Route }) {
  const d = useDesk();
  const user = d.session!.user;
  const alertId = route.query.get("alert") ?? "";
  const [client, setClient] = useState(route.query.get("client") ?? "");
  const [basis, setBasis] = useState<string>("behaviour");
  const [narrative, setNarrative] = useState("");
  const [alert, setAlert] = useState<Alert | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [raised, setRaised] = useState<Aviso | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!alertId) return;
    get<Alert>(`/v1/projects/${user.projectId}/alerts/${encodeURIComponent(alertId)}`)
      .then((a) => {
        setAlert(a);
        if (a.subject.userId) setClient(a.subject.userId);
        if (a.cause === "person_match") setBasis("listed-person");
      })
      .catch(setError);
  }, [alertId, user.projectId]);

  if (!atLeast(user.role, "officer"))
    return <p role="alert">{d.t("error.forbidden", { role: d.t(`desk.role.${user.role}`) })}</p>;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      setRaised(
        await call<Aviso>("POST", `/v1/projects/${user.projectId}/avisos`, {
          userId: client.trim(),
          basis,
          narrative: narrative.trim(),
          ...(alert
            ? {
                alertIds: [alert.id],
                txHashes: alert.evidence.transfers
                  .map((t) => t.txHash)
                  .filter((h) => /^(0x)?[0-9a-fA-F]{64}$/.test(h)),
              }
            : {}),
        }),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <h1>{d.t("desk.aviso.heading")}</h1>
      <p class="muted">{d.t("desk.aviso.hint")}</p>
      {alert && (
        <p id="aviso-from-alert">
          {d.t("desk.aviso.from_alert", { id: alert.id, reason: alert.reasonText })}
        </p>
      )}
      <form id="aviso-form" class="stack" onSubmit={submit}>
        <label>
          {d.t("desk.filter.client")}
          <input
            id="aviso-client"
            required
            maxLength={255}
            value={client}
            onInput={(e) => setClient(e.currentTarget.value)}
          />
        </label>
        <label>
          {d.t("desk.aviso.basis")}
          <select id="aviso-basis" value={basis} onChange={(e) => setBasis(e.currentTarget.value)}>
            {BASES.map((b) => (
              <option key={b} value={b}>
                {d.label("desk.basis", b)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {d.t("desk.aviso.narrative")}
          <textarea
            id="aviso-narrative"
            required
            minLength={20}
            maxLength={3000}
            rows={5}
            value={narrative}
            onInput={(e) => setNarrative(e.currentTarget.value)}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" id="aviso-submit" disabled={busy}>
          {d.t("desk.aviso.submit")}
        </button>
      </form>
      {raised && (
        <p class="notice" role="status" id="aviso-raised" data-reference={raised.reference}>
          {d.t("desk.aviso.raised", {
            reference: raised.reference,
            deadline: d.lawTime(raised.deadline, MEXICO_CITY),
            countdown: d.countdown(raised.deadline),
          })}
        </p>
      )}
    </div>
  );
}
