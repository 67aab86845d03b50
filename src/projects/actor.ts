// Who made a change, as the audit log names it: an API key (`key:<id>`), a person signed in (`user:<id>`, which
// histories show by the person's name), the command line, or the service itself.
import type { Principal } from "../platform/http/auth.ts";

export type Actor =
  | { kind: "key"; keyId: number }
  | { kind: "user"; userId: number }
  | { kind: "cli" }
  | { kind: "system" };

export const actorName = (actor: Actor) =>
  actor.kind === "key" ? `key:${actor.keyId}` : actor.kind === "user" ? `user:${actor.userId}` : actor.kind;

/** The actor of an authenticated request: the person signed in, else the key it was made with. */
export function actorOf(principal: Principal): Actor {
  if (principal.userId !== null) return { kind: "user", userId: principal.userId };
  if (principal.keyId !== null) return { kind: "key", keyId: principal.keyId };
  // The auth hook sets one of the two on every principal; a principal with neither is a bug, never an anonymous write.
  throw new Error("a principal names neither a key nor a person");
}
