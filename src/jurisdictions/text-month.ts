// The month's files of a jurisdiction that writes one text file per client (Colombia, El Salvador, Guatemala): a
// file for each client governed there with an operation of the month that met one of the country's rules, built by
// the country's layout; a client whose profile cannot make it is refused with the field at fault.
import { byUser, type ClientOperation } from "../regulation/index.ts";
import { TEXT_MEDIA_TYPE } from "./delimited.ts";
import type { Blocked, MonthBuild, MonthInput } from "./port.ts";
import type { Profile } from "./profile.ts";
import { userStem } from "./user-ids.ts";

export interface TextMonth {
  /** the rules whose infringement makes a client's month reportable */
  rules: readonly string[];
  /** the client's file of the month: from the profile and the client's operations of the month governed here */
  build(
    userId: string,
    profile: Profile,
    operations: ClientOperation[],
  ): { ok: true; content: Buffer } | { ok: false; blocked: Blocked };
  /** what a person calls the file ("the UIAF transactions report of 2026-04") */
  name(period: string): string;
}

export async function textMonthly(month: MonthInput, spec: TextMonth): Promise<MonthBuild> {
  const build: MonthBuild = { files: [], refused: [], elsewhere: [], problems: [] };
  const inMonth = (op: ClientOperation) =>
    op.blockTime >= month.bounds.start && op.blockTime < month.bounds.end;
  const reportable = (op: ClientOperation) =>
    inMonth(op) && (op.laws?.some((l) => spec.rules.includes(l)) ?? false);
  for (const [userId, operations] of byUser(month.operations)) {
    if (!operations.some(reportable)) continue;
    const client = await month.client(userId, operations);
    if (client.kind === "elsewhere") {
      build.elsewhere.push({ userId, governedBy: client.governedBy });
      continue;
    }
    const blocks = spec.name(month.period);
    if (client.kind === "unreadable") {
      build.refused.push({
        kind: "monthly",
        userId,
        code: "profile_unreadable",
        reason: client.reason,
        blocks,
      });
      continue;
    }
    const mine = client.operations.filter(inMonth);
    if (!mine.some(reportable)) continue;
    const built = spec.build(userId, client.profile, mine);
    if (!built.ok) {
      build.refused.push({ kind: "monthly", userId, ...built.blocked, blocks });
      continue;
    }
    build.files.push({
      kind: "monthly",
      userId,
      stem: userStem(userId),
      extension: "txt",
      mediaType: TEXT_MEDIA_TYPE,
      profile: client.profile,
      render: () => ({ ok: true, content: built.content, entries: [] }),
    });
  }
  return build;
}
