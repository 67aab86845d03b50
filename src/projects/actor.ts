// Who made a change, as the audit log names it.
export type Actor = { kind: "key"; keyId: number } | { kind: "cli" } | { kind: "system" };

export const actorName = (actor: Actor) => (actor.kind === "key" ? `key:${actor.keyId}` : actor.kind);
