// A project's cap on notifications waiting for delivery (VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT): past it, the
// monitoring room holds the project's transfers back (they wait, unjudged, until its integrator takes its messages),
// so that one tenant's dead endpoint cannot grow the outbox without end. Said in the log once when it starts and
// once when it ends.
import type { IntegratorContext } from "./context.ts";
import { openMessages } from "./outbox.ts";

/** How long a project's count serves: the claims of the checker ask often. */
const FRESH_MS = 5_000;

/** Whether a project's outbox holds its cap of messages waiting, counted at most every 5 s per project. */
export function outboxFull(ctx: IntegratorContext, cap: number): (projectId: number) => Promise<boolean> {
  const counted = new Map<number, { at: number; full: boolean }>();
  return async (projectId) => {
    const found = counted.get(projectId);
    if (found && ctx.now() - found.at < FRESH_MS) return found.full;
    const open = await openMessages(ctx.db, projectId);
    const full = open >= cap;
    if (full !== (found?.full ?? false))
      ctx.log?.warn(
        { projectId, open, cap },
        full
          ? `project ${projectId} has ${open} notifications waiting, its cap (VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT): its monitored transfers wait until its integrator takes its messages`
          : `project ${projectId}'s outbox is below its cap again: its monitored transfers are checked`,
      );
    counted.set(projectId, { at: ctx.now(), full });
    return full;
  };
}
