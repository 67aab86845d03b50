// The files of avisos due from knowledge (src/avisos: a client found on the UIF's Lista de Personas Bloqueadas,
// whether or not it has operated since): written as soon as they are recorded, by the same loop as the transfers'
// urgent avisos (urgent.ts) and through the same versioned writer (files.ts), in the month the provider learned of
// them: `mx/<projectId>/<YYYY-MM>/<userId>.24h.<reference>.xml`. The client's profile is read from the integrator
// (a prospect's data as given when it has none);
// a client another jurisdiction governs gets no file (settled, as the generation says); one whose file cannot be
// written is a failure, reported like every failure (failures.ts), and tried again an hour later.
import { dropDeadline } from "../alerts/index.ts";
import { type Aviso, markAviso, unsettledAvisos } from "../avisos/index.ts";
import { exchangeClientOperations, nativeCoins } from "../exchange-operations/index.ts";
import {
  type ClientFile,
  filingJurisdictions,
  governingJurisdiction,
  type Jurisdiction,
  type Profile,
} from "../jurisdictions/index.ts";
import { readClientOperations } from "../monitoring/index.ts";
import { projectCompliance, writeAudit } from "../projects/index.ts";
import { operationIdOfHash } from "../regulation/index.ts";
import type { ReportsContext } from "./context.ts";
import { failuresInTransaction, logFailures } from "./failures.ts";
import { folderOf, type Unbuilt, writeFiles } from "./files.ts";
import { GOVERNED_ELSEWHERE } from "./profiles.ts";
import { asChainWrites } from "./written-addresses.ts";

const RETRY_AFTER_MS = 3600_000;

/** Avisos of `j` whose file is still to be written and was not tried in the last hour. */
export function dueKnownAvisos(ctx: ReportsContext, j: Jurisdiction, limit: number): Promise<Aviso[]> {
  return unsettledAvisos(ctx.db, j.code, new Date(ctx.now() - RETRY_AFTER_MS), limit);
}

/** Writes the file of one aviso due from knowledge; true when it is settled (written, or owed elsewhere). */
export async function writeKnownAviso(ctx: ReportsContext, j: Jurisdiction, a: Aviso): Promise<boolean> {
  const urgent = j.urgent;
  if (!urgent) return false;
  const startedAt = new Date(ctx.now());
  const month = { projectId: a.projectId, countryCode: j.code, period: a.period };
  const stem = urgent.knownStemOf(a);
  const blocks = `the 24-hour aviso of user ${a.userId} (${a.basis})`;
  const basis = urgent.bases.find((b) => b.id === a.basis);
  const compliance = await projectCompliance(ctx.db, a.projectId);
  let files: ClientFile[] = [];
  let refused: Unbuilt[] = [];
  let governedBy: string | null | undefined;
  if (!basis)
    refused = [
      {
        kind: "urgent",
        userId: a.userId,
        stem,
        code: "unknown_basis",
        reason: `${a.basis} is not a ground of ${j.code}'s avisos`,
        blocks,
      },
    ];
  else {
    // A person who only tried to operate may be unknown to the integrator: the data given when they were screened
    // stand in for the profile (Reglamento Art. 7 Bis: the data that identify who tried to operate).
    const fromIntegrator = await ctx.profiles.read(a.projectId, a.userId);
    const read =
      !fromIntegrator.ok && a.prospect
        ? { ok: true as const, profile: a.prospect as Profile }
        : fromIntegrator;
    if (!read.ok)
      refused = [
        { kind: "urgent", userId: a.userId, stem, code: "profile_unreadable", reason: read.reason, blocks },
      ];
    else {
      const governing = governingJurisdiction(
        compliance.jurisdictions,
        compliance.clientJurisdiction,
        read.profile,
        null,
      );
      const filing = filingJurisdictions(
        compliance.jurisdictions,
        compliance.clientJurisdiction,
        read.profile,
        null,
      );
      if (!filing.includes(j.code)) governedBy = governing;
      else {
        // The client's transactions the officer named, as the file reports operations.
        // The client's transactions and exchange operations the officer named, as the file reports operations (an
        // exchange operation is kept among the hashes as `op:` and its id).
        const books = [{ code: j.code, timeZone: j.timeZone, currency: j.currency }];
        const txHashes = a.txHashes.filter((h) => operationIdOfHash(h) === undefined);
        const operationIds = a.txHashes.flatMap((h) => operationIdOfHash(h) ?? []);
        const operations = [
          ...(txHashes.length === 0
            ? []
            : asChainWrites(
                ctx.registry,
                await readClientOperations(ctx.db, ctx.registry, {
                  projectId: a.projectId,
                  userId: a.userId,
                  txHashes,
                  status: "checked",
                  books,
                }),
                j,
              )),
          ...(operationIds.length === 0
            ? []
            : await exchangeClientOperations(
                ctx.db,
                { projectId: a.projectId, userId: a.userId, operationIds, status: "checked", books },
                nativeCoins(ctx.registry),
              )),
        ].sort((x, y) => x.blockTime.getTime() - y.blockTime.getTime());
        const built = urgent.buildKnown({
          settings: compliance.settings[j.code],
          aviso: {
            userId: a.userId,
            reference: a.reference,
            basis,
            narrative: a.narrative,
            ...(a.account ? { account: a.account } : {}),
            operations,
          },
          profile: read.profile,
          period: a.period,
        });
        if (built.ok) files = [built.file];
        else refused = [{ kind: "urgent", userId: a.userId, stem, ...built.blocked, blocks }];
      }
    }
  }
  const elsewhere =
    governedBy !== undefined
      ? [
          {
            userId: a.userId,
            code: GOVERNED_ELSEWHERE,
            reason: `the client is governed by ${governedBy ?? "no jurisdiction of the project"}`,
          },
        ]
      : [];
  const written = await writeFiles(
    ctx,
    {
      ...month,
      kinds: ["urgent"],
      complete: false,
      ...(governedBy !== undefined ? { settled: [stem] } : {}),
    },
    files,
    refused,
    {
      trigger: "urgent",
      actor: "system",
      startedAt,
      audit: async (trx, result) => {
        await writeAudit(trx, {
          projectId: a.projectId,
          actor: "system",
          action: "reports.generated",
          target: `${folderOf(month)}/${stem}`,
          details: { generationId: result.generationId, trigger: "urgent", aviso: a.id, basis: a.basis },
        });
        await failuresInTransaction(trx, { ...month, actor: "system" }, result);
      },
    },
    elsewhere,
  );
  logFailures(ctx, month, written);
  const outcome = governedBy !== undefined ? "elsewhere" : written.files.length > 0 ? "written" : "tried";
  await markAviso(ctx.db, a.id, outcome, new Date(ctx.now()));
  // The listing's alert no longer waits on this aviso.
  if (outcome === "elsewhere")
    await dropDeadline(
      ctx.db,
      a.alertIds,
      `${j.code}-URGENT`,
      `the client is governed by ${governedBy ?? "no jurisdiction of the project"}: no aviso is owed in ${j.code}`,
      new Date(ctx.now()),
    );
  return outcome !== "tried";
}
