// A rotation of the webhook secret that fails no call, in either scheme (docs/decisions/0027-cut-over-from-the-original.md).
//
// Standard Webhooks carries several signatures: while a rotated-out secret is honoured, both are sent and the
// integrator's library accepts either. The `hmac-canonical` scheme carries one, and receivers built for the service
// it comes from know one secret, so the service signs each call with the secret the integrator still uses (the
// rotated-out one) and, when the integrator refuses it (401 or 403: what the original's template answers to a
// signature it cannot verify), sends the same call again at once signed with the new one. The first call the
// integrator accepts under the new secret is its confirmation: the old secret is dropped (confirmRotation), and
// every later call is signed with the new one. The deadline given at the rotation (24 h by default) ends the
// rotation in any case. A receiver that still knows only the old secret, then only the new, never fails a call.
import type { Kysely } from "kysely";
import { writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import type { IntegratorContext } from "./context.ts";
import type { Integration } from "./settings.ts";

/** The answers that say a signature was refused: the call is sent again under the other secret. */
const REFUSED_SIGNATURE = new Set([401, 403]);

/**
 * The secrets each signing of a call uses, in order: one list (every secret at once) for Standard Webhooks and
 * outside a rotation; for `hmac-canonical` during a rotation, the rotated-out secret, then the new one.
 */
export function signingOrder(integration: Integration): (readonly string[])[] {
  const [current, previous] = integration.secrets;
  if (integration.scheme === "hmac-canonical" && current !== undefined && previous !== undefined)
    return [[previous], [current]];
  return [integration.secrets];
}

/**
 * Makes one call to the project's integrator, signed by `send` with the secrets given: under a rotation of the
 * canonical scheme, again with the new secret when the old one is refused, and then ends the rotation. Answers
 * the last answer; throws what `send` throws (no answer at all is not a refusal).
 */
export async function callSigned<R extends { status: number }>(
  ctx: Pick<IntegratorContext, "db" | "now" | "log">,
  projectId: number,
  integration: Integration,
  send: (secrets: readonly string[]) => Promise<R>,
  /** told of the refused call signed with the rotated-out secret, before the call sent again */
  onRefused?: (refused: { status: number; durationMs: number }) => void,
): Promise<R> {
  const [first, next] = signingOrder(integration);
  const started = performance.now();
  const answer = await send(first as readonly string[]);
  if (next === undefined || !REFUSED_SIGNATURE.has(answer.status)) return answer;
  onRefused?.({ status: answer.status, durationMs: performance.now() - started });
  const again = await send(next);
  if (again.status >= 200 && again.status < 300) {
    if (await confirmRotation(ctx.db, projectId, integration.sealedSecret))
      ctx.log?.info(
        { projectId },
        "the integrator accepted a call signed with the new webhook secret: the rotated-out secret is dropped",
      );
  }
  return again;
}

/**
 * Ends a rotation once the integrator has taken the new secret: the rotated-out secret signs no more. Only while
 * `sealedSecret` (the new secret, as stored) is still the current one; true when this call ended it.
 */
export async function confirmRotation(
  db: Kysely<DB>,
  projectId: number,
  sealedSecret: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable("integrations")
      .set({ previous_webhook_secret_enc: null, previous_webhook_secret_until: null, updated_at: new Date() })
      .where("project_id", "=", projectId)
      .where("webhook_secret_enc", "=", sealedSecret)
      .where("previous_webhook_secret_enc", "is not", null)
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) === 0) return false;
    await writeAudit(trx, {
      projectId,
      actor: "integrator",
      action: "project.webhook_secret_confirmed",
      target: `project:${projectId}`,
      details: { reason: "the integrator accepted a call signed with the new secret" },
    });
    return true;
  });
}
