// `vigia audit verify`: walks every chain of the audit log (src/projects/audit-chain.ts) in id order, recomputes
// each entry's hash and checks its link to the entry before it, and names the first broken link. Read-only.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { CHAINED, chainOf, entryHash } from "./audit-chain.ts";

const PAGE = 1_000;

export type BrokenLinkProblem =
  /** the entry's contents no longer give its hash: it was changed after it was written */
  | "changed"
  /** its link does not name the entry before it: an entry between them was removed, or this one slipped in */
  | "link"
  /** written around the service, after the chain began: no hash */
  | "unchained";

export interface BrokenLink {
  projectId: number | null;
  id: string;
  action: string;
  createdAt: string;
  problem: BrokenLinkProblem;
  /** the sentence a person reads */
  message: string;
}

export interface AuditVerification {
  entries: number;
  chains: number;
  /** entries written before the chain existed and not linked yet (the next write in their chain links them) */
  notYetLinked: number;
  /** each chain's last entry and hash: record them elsewhere to detect the newest entries being removed later */
  heads: { projectId: number | null; id: string; hash: string }[];
  firstBroken: BrokenLink | null;
}

const describe = (problem: BrokenLinkProblem, where: string) =>
  ({
    changed: `${where} was changed after it was written: its contents no longer match its hash`,
    link: `${where} does not link to the entry before it: an entry between them was removed, or this one was inserted`,
    unchained: `${where} has no hash although the chain had begun: it was written around the service`,
  })[problem];

export async function verifyAudit(db: Kysely<DB>): Promise<AuditVerification> {
  const projects = await db.selectFrom("audit_log").select("project_id").distinct().execute();
  const result: AuditVerification = {
    entries: 0,
    chains: projects.length,
    notYetLinked: 0,
    heads: [],
    firstBroken: null,
  };
  const chains = projects.map((p) => p.project_id).sort((a, b) => (a ?? 0) - (b ?? 0));
  for (const projectId of chains) {
    let prev: string | null = null;
    let begun = false;
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
        const id = String(row.id);
        lastId = id;
        let problem: BrokenLinkProblem | null = null;
        if (row.hash === null) {
          if (begun) problem = "unchained";
          else result.notYetLinked++;
        } else {
          begun = true;
          if (row.prev_hash !== prev) problem = "link";
          else if (entryHash({ ...row, id }) !== row.hash) problem = "changed";
          prev = row.hash;
          result.heads = result.heads.filter((h) => h.projectId !== projectId);
          result.heads.push({ projectId, id, hash: row.hash });
        }
        if (problem && !result.firstBroken) {
          const where = `entry ${id} (${projectId === null ? "the service's own chain" : `project ${projectId}`}, ${row.action}, ${row.created_at.toISOString()})`;
          result.firstBroken = {
            projectId,
            id,
            action: row.action,
            createdAt: row.created_at.toISOString(),
            problem,
            message: describe(problem, where),
          };
        }
      }
      if (rows.length < PAGE) break;
    }
  }
  return result;
}
