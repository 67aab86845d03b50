// The case of one client (GET /projects/{projectId}/clients/{clientId}/case): its profile as last read, its
// screening, its alerts grouped by link, its monitored addresses with their current risk, its avisos and report
// files, and its timeline in words; each part read through its own room's door, each bounded.
import type { Kysely } from "kysely";
import { historiesInWords, levelWords, listInbox } from "../alerts/index.ts";
import { latestVerdict } from "../analysis/index.ts";
import { avisosOfClient } from "../avisos/index.ts";
import { hasOperations } from "../exchange-operations/index.ts";
import type { Lang } from "../messages/index.ts";
import { listAddresses } from "../monitoring/index.ts";
import { AppError } from "../platform/errors.ts";
import { filesOfClient } from "../reports/index.ts";
import type { DB } from "../schema.ts";
import { clientScreeningOf } from "../screening/index.ts";
import { groupLinked } from "./groups.ts";
import type { ClientCase } from "./schemas.ts";
import { TIMELINE_MAX, timelineOf } from "./timeline.ts";

/** The most of each part a case shows (the inbox pages over the rest: GET /alerts?client=). */
const MOST = 100;

export async function clientCase(
  db: Kysely<DB>,
  projectId: number,
  clientId: string,
  now: Date,
  lang: Lang,
): Promise<ClientCase> {
  const [page, addresses, screening, avisos, files] = await Promise.all([
    listInbox(db, projectId, { client: clientId, limit: MOST, offset: 0 }, now, lang),
    listAddresses(db, projectId, { foreignUserId: clientId, limit: MOST, offset: 0 }),
    clientScreeningOf(db, projectId, clientId),
    avisosOfClient(db, projectId, clientId, MOST),
    filesOfClient(db, projectId, clientId, MOST),
  ]);
  if (
    page.total === 0 &&
    addresses.length === 0 &&
    !screening &&
    avisos.length === 0 &&
    files.length === 0 &&
    !(await hasOperations(db, projectId, clientId))
  )
    throw new AppError(
      "not_found",
      `No client "${clientId}" in this project: no monitored address, alert, screening, aviso, report file or exchange operation names it. The id is the integrator's user id, as given when its addresses were registered (GET /v1/projects/${projectId}/addresses lists them with foreign_user_id)`,
    );
  const risks = await Promise.all(
    addresses.map((a) =>
      latestVerdict(db, { projectId, address: a.address, chainId: a.chainId ?? undefined }),
    ),
  );
  const histories = await historiesInWords(
    db,
    projectId,
    page.alerts.map((a) => a.id),
    lang,
    TIMELINE_MAX,
  );
  return {
    clientId,
    // A client queued for its first screening has had no profile read yet.
    profile:
      screening && screening.verdict !== "pending"
        ? { readAt: screening.screenedAt.toISOString(), persons: screening.subjects }
        : null,
    screening: screening
      ? {
          verdict: screening.verdict,
          screenedAt: screening.screenedAt.toISOString(),
          candidates: screening.candidates,
        }
      : null,
    alerts: { total: page.total, overdue: page.overdue, groups: groupLinked(page.alerts) },
    addresses: addresses.map((a, i) => {
      const v = risks[i]?.verdict;
      return {
        id: String(a.id),
        chainId: a.chainId,
        address: a.address,
        description: a.description,
        jurisdiction: a.jurisdiction,
        registeredAt: a.createdAt.toISOString(),
        risk: v
          ? {
              score: v.score,
              level: v.level,
              levelText: v.level === null ? null : levelWords(lang, v.level),
              source: v.source,
              analysisId: v.analysisId,
              at: v.at.toISOString(),
            }
          : null,
      };
    }),
    avisos: avisos.map((a) => ({
      id: a.id,
      countryCode: a.countryCode,
      reference: a.reference,
      basis: a.basis,
      origin: a.origin,
      period: a.period,
      knownAt: a.knownAt.toISOString(),
      deadline: a.deadline.toISOString(),
      settledAt: a.settledAt?.toISOString() ?? null,
      alertIds: a.alertIds,
      txHashes: a.txHashes,
    })),
    filings: files.map((f) => ({
      ...f,
      createdAt: f.createdAt.toISOString(),
      filedAt: f.filedAt?.toISOString() ?? null,
    })),
    timeline: timelineOf(lang, {
      addresses,
      screening,
      histories,
      alertCauses: new Map(page.alerts.map((a) => [a.id, a.cause])),
      avisos,
      files,
    }),
  };
}
