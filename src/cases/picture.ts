// One client, one picture (GET /projects/{projectId}/clients/{clientId}): the client's risk combined from its
// wallets' verdicts (the latest analysis of each monitored address) and the open alerts of the rules over its
// exchange operations, with the facts behind it: each wallet's verdict, each open alert with its reason in the
// reader's language, and its operations of the last 90 days in figures. The level is the highest of them; every
// driver names where it comes from, so the officer can open it.
import type { Kysely } from "kysely";
import { levelWords, listInbox, OPERATION_CAUSES } from "../alerts/index.ts";
import { latestVerdict } from "../analysis/index.ts";
import { operationSummary } from "../exchange-operations/index.ts";
import type { Lang } from "../messages/index.ts";
import { listAddresses } from "../monitoring/index.ts";
import { AppError } from "../platform/errors.ts";
import { compareLevels, type RiskLevel } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { ClientPicture } from "./picture-schemas.ts";

/** How far back the operations are summed. */
export const PICTURE_DAYS = 90;
const MOST = 100;
const OPERATION_CAUSE_SET = new Set<string>(OPERATION_CAUSES);

export async function clientPicture(
  db: Kysely<DB>,
  projectId: number,
  clientId: string,
  now: Date,
  lang: Lang,
): Promise<ClientPicture> {
  const since = new Date(now.getTime() - PICTURE_DAYS * 86_400_000);
  const [page, addresses, operations] = await Promise.all([
    listInbox(db, projectId, { client: clientId, limit: MOST, offset: 0 }, now, lang),
    listAddresses(db, projectId, { foreignUserId: clientId, limit: MOST, offset: 0 }),
    operationSummary(db, projectId, clientId, since),
  ]);
  if (page.total === 0 && addresses.length === 0 && operations.count === 0)
    throw new AppError(
      "not_found",
      `No client "${clientId}" in this project: no monitored address, alert or operation of the last ${PICTURE_DAYS} days names it. The id is the integrator's user id, as sent with its addresses and operations`,
    );
  const verdicts = await Promise.all(
    addresses.map((a) =>
      latestVerdict(db, { projectId, address: a.address, chainId: a.chainId ?? undefined }),
    ),
  );
  const wallets = addresses.map((a, i) => {
    const v = verdicts[i]?.verdict;
    return {
      chainId: a.chainId,
      address: a.address,
      level: v?.level ?? null,
      score: v?.score ?? null,
      reason: v?.reason ?? null,
      source: v?.source ?? null,
      analysisId: v?.analysisId ?? null,
      at: v ? v.at.toISOString() : null,
    };
  });
  const openOperationAlerts = page.alerts.filter(
    (a) => a.status !== "closed" && OPERATION_CAUSE_SET.has(a.cause),
  );
  const drivers = [
    ...wallets.flatMap((w) =>
      w.level === null
        ? []
        : [
            {
              kind: "wallet" as const,
              level: w.level,
              ref: `${w.chainId ?? "*"}:${w.address}`,
              text: w.reason ?? "",
            },
          ],
    ),
    ...openOperationAlerts.map((a) => ({
      kind: "operations" as const,
      level: a.level,
      ref: `alert:${a.id}`,
      text: a.reasonText,
    })),
  ].sort((x, y) => compareLevels(y.level as RiskLevel, x.level as RiskLevel));
  const level = (drivers[0]?.level ?? null) as RiskLevel | null;
  return {
    clientId,
    risk: {
      level,
      levelText: level === null ? null : levelWords(lang, level),
      drivers: drivers.map((d) => ({ ...d, levelText: levelWords(lang, d.level) })),
    },
    wallets,
    operationAlerts: openOperationAlerts.map((a) => ({
      id: a.id,
      cause: a.cause,
      level: a.level,
      reasonText: a.reasonText,
      operations: a.evidence.operations?.length ?? 0,
      createdAt: a.createdAt,
    })),
    operations,
    otherOpenAlerts: page.alerts.filter((a) => a.status !== "closed" && !OPERATION_CAUSE_SET.has(a.cause))
      .length,
  };
}
