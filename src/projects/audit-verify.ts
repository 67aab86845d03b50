// `vigia audit verify`: walks every chain of the audit log (src/projects/audit-chain.ts) in id order, recomputes
// each entry's hash and checks its link to the entry before it; then checks each chain against its signed head
// (audit-head.ts), and against heads recorded elsewhere when given (`--head FILE`, the output of `vigia audit head`
// kept by an outside witness). A chain's hashes alone can be recomputed by whoever writes the database; the
// signed head is what shows a chain blanked and sealed again, cut short, or taken back to an older state. Read-only.
import type { Kysely } from "kysely";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import type { DB } from "../schema.ts";
import { CHAINED, chainOf, entryHash } from "./audit-chain.ts";
import { type AuditHead, auditKeys, chainKey, headSignatureValid, listHeads } from "./audit-head.ts";

const PAGE = 1_000;
/** At most this many problems are listed (the first one always). */
const MAX_PROBLEMS = 100;

export type BrokenLinkProblem =
  /** the entry's contents no longer give its hash: it was changed after it was written */
  | "changed"
  /** its link does not name the entry before it: an entry between them was removed, or this one slipped in */
  | "link"
  /** no hash: written around the service, or its hash blanked */
  | "unlinked"
  /** a chain with entries and no signed head: the head was removed */
  | "head-missing"
  /** the head's signature is no key's of this service: it was written around the service */
  | "head-signature"
  /** the entry a signed head names is gone: entries up to it were removed */
  | "truncated"
  /** the entry a signed head names has another hash now: the chain was sealed again after a change */
  | "resealed"
  /** entries after the signed head: written around the service (every write of the service moves the head) */
  | "beyond-head"
  /** the stored head is behind a head recorded before (`--head`): the chain and its head were taken back */
  | "rollback"
  /** a head given with `--head` carries no signature of this service */
  | "witness-signature";

export interface BrokenLink {
  projectId: number | null;
  /** the entry concerned; for a head's problem, the entry the head names */
  id: string | null;
  action: string | null;
  createdAt: string | null;
  problem: BrokenLinkProblem;
  /** the sentence a person reads */
  message: string;
}

export interface AuditVerification {
  entries: number;
  chains: number;
  /** each chain's signed head as stored: give them to an outside witness (`vigia audit head`) */
  heads: AuditHead[];
  /** how many heads given with `--head` were compared */
  witnessed: number;
  firstBroken: BrokenLink | null;
  /** every problem found, in chain and id order (at most MAX_PROBLEMS) */
  problems: BrokenLink[];
}

const chainName = (projectId: number | null) =>
  projectId === null ? "the service's own chain" : `project ${projectId}`;

const ENTRY_MESSAGES: Record<"changed" | "link" | "unlinked", string> = {
  changed: "was changed after it was written: its contents no longer match its hash",
  link: "does not link to the entry before it: an entry between them was removed or changed, or this one was inserted",
  unlinked: "has no hash: it was written around the service, or its hash was blanked",
};

export async function verifyAudit(
  db: Kysely<DB>,
  opts: { keys?: ServerKeys; witness?: readonly AuditHead[] } = {},
): Promise<AuditVerification> {
  const keys = opts.keys ?? auditKeys();
  const heads = await listHeads(db);
  const witness = opts.witness ?? [];
  const logged = await db.selectFrom("audit_log").select("project_id").distinct().execute();
  const chainSet = new Map<number, number | null>();
  for (const p of logged) chainSet.set(chainKey(p.project_id), p.project_id);
  for (const h of [...heads, ...witness]) chainSet.set(chainKey(h.projectId), h.projectId);
  const chains = [...chainSet.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
  const result: AuditVerification = {
    entries: 0,
    chains: chains.length,
    heads,
    witnessed: witness.length,
    firstBroken: null,
    problems: [],
  };
  const report = (b: BrokenLink) => {
    result.firstBroken ??= b;
    if (result.problems.length < MAX_PROBLEMS) result.problems.push(b);
  };
  const headProblem = (
    projectId: number | null,
    id: string | null,
    problem: BrokenLinkProblem,
    message: string,
  ) =>
    report({
      projectId,
      id,
      action: null,
      createdAt: null,
      problem,
      message: `${chainName(projectId)}: ${message}`,
    });

  for (const projectId of chains) {
    const head = heads.find((h) => chainKey(h.projectId) === chainKey(projectId));
    const witnessed = witness.filter((h) => chainKey(h.projectId) === chainKey(projectId));
    // The hashes the chain holds now at the entries the heads name, read on the way.
    const wanted = new Set([head, ...witnessed].filter((h) => h !== undefined).map((h) => h.id));
    const found = new Map<string, string | null>();
    let rowsInChain = 0;
    let beyondHead = 0;
    let prev: string | null = null;
    let lastId = "0";
    for (;;) {
      const rows = await db
        .selectFrom("audit_log")
        .select(CHAINED)
        .where(chainOf(projectId))
        .where("id", ">", lastId)
        .orderBy("id")
        .limit(PAGE)
        .execute();
      for (const row of rows) {
        result.entries++;
        rowsInChain++;
        const id = String(row.id);
        lastId = id;
        if (wanted.has(id)) found.set(id, row.hash);
        if (head && BigInt(id) > BigInt(head.id)) beyondHead++;
        let problem: "changed" | "link" | "unlinked" | null = null;
        if (row.hash === null) problem = "unlinked";
        else if (row.prev_hash !== prev) problem = "link";
        else if (entryHash({ ...row, id }) !== row.hash) problem = "changed";
        // A blanked entry keeps the chain's place: the entry after it is checked against the last hash seen.
        if (row.hash !== null) prev = row.hash;
        if (problem) {
          const createdAt = row.created_at.toISOString();
          report({
            projectId,
            id,
            action: row.action,
            createdAt,
            problem,
            message: `entry ${id} (${chainName(projectId)}, ${row.action}, ${createdAt}) ${ENTRY_MESSAGES[problem]}`,
          });
        }
      }
      if (rows.length < PAGE) break;
    }

    if (!head) {
      if (rowsInChain > 0)
        headProblem(projectId, null, "head-missing", "its entries have no signed head: the head was removed");
    } else if (!headSignatureValid(keys, head)) {
      headProblem(
        projectId,
        head.id,
        "head-signature",
        `its head (entry ${head.id}) carries no signature of this service's secret: it was written around the service`,
      );
    } else {
      compareWithHead(projectId, head, found, "its signed head", headProblem);
      if (beyondHead > 0)
        headProblem(
          projectId,
          head.id,
          "beyond-head",
          `${beyondHead} entr${beyondHead === 1 ? "y" : "ies"} after its signed head (entry ${head.id}): written around the service`,
        );
    }

    for (const w of witnessed) {
      if (!headSignatureValid(keys, w)) {
        headProblem(
          projectId,
          w.id,
          "witness-signature",
          `the head given (entry ${w.id}) carries no signature of this service's secret`,
        );
        continue;
      }
      const stored = head && headSignatureValid(keys, head) ? head : undefined;
      if (!stored || stored.seq < w.seq || BigInt(stored.id) < BigInt(w.id))
        headProblem(
          projectId,
          w.id,
          "rollback",
          `the head recorded at ${w.signedAt} (${w.seq} entries, entry ${w.id}) is ahead of the chain's signed head now (${stored ? `${stored.seq} entries, entry ${stored.id}` : "none"}): the chain and its head were taken back`,
        );
      compareWithHead(projectId, w, found, `the head recorded at ${w.signedAt}`, headProblem);
    }
  }
  return result;
}

function compareWithHead(
  projectId: number | null,
  head: AuditHead,
  found: Map<string, string | null>,
  which: string,
  headProblem: (
    projectId: number | null,
    id: string | null,
    problem: BrokenLinkProblem,
    message: string,
  ) => void,
): void {
  if (!found.has(head.id))
    headProblem(
      projectId,
      head.id,
      "truncated",
      `${which} names entry ${head.id} (${head.seq} entries), which is no longer in the chain: entries were removed`,
    );
  else if (found.get(head.id) !== head.hash)
    headProblem(
      projectId,
      head.id,
      "resealed",
      `${which}'s hash is not entry ${head.id}'s any more: the chain was changed and sealed again`,
    );
}

/** Reads heads given by a person: the output of `vigia audit head` or of `vigia audit verify`, or a list of heads. */
export function parseHeads(text: string): AuditHead[] {
  const value = JSON.parse(text) as unknown;
  const list = Array.isArray(value) ? value : (value as { heads?: unknown })?.heads;
  if (!Array.isArray(list)) throw new Error('expected the JSON of `vigia audit head`: {"heads": [...]}');
  return list.map((h, i) => {
    const o = h as Record<string, unknown>;
    const ok =
      (o.projectId === null || typeof o.projectId === "number") &&
      typeof o.seq === "number" &&
      typeof o.id === "string" &&
      /^\d+$/.test(o.id) &&
      typeof o.hash === "string" &&
      typeof o.signedAt === "string" &&
      typeof o.keyId === "string" &&
      typeof o.signature === "string";
    if (!ok) throw new Error(`head ${i + 1} is not a head of \`vigia audit head\``);
    return {
      projectId: o.projectId as number | null,
      seq: o.seq as number,
      id: o.id as string,
      hash: o.hash as string,
      signedAt: o.signedAt as string,
      keyId: o.keyId as string,
      signature: o.signature as string,
    };
  });
}
