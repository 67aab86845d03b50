// POST /screening: a person and the wallets they use, answered in one verdict. The wallets are scanned as POST
// .../scan-risk scans them (src/analysis); the person is screened against the lists. A wallet's level reads as a
// screening verdict: critical is a `match`, high and medium are for `review`, minimal and low are `clear`; a wallet
// that could not be analysed (an unknown chain, a failing source, no current data) is for `review`, never `clear`,
// since nothing was seen of it. The verdict is the strongest of the person's and the wallets' (outcomes.ts: a
// sanctions `match`, then `review`, then `pep`), and `reasons` says which made it.
import type { Static } from "@sinclair/typebox";
import { type AnalysisContext, scanRisk } from "../analysis/index.ts";
import { worstVerdict } from "./outcomes.ts";
import type { CombinedResponse, PersonInput, PersonResult, Verdict } from "./schemas.ts";

type WalletResult = Awaited<ReturnType<typeof scanRisk>>["results"][number];

export function walletVerdict(w: WalletResult): Verdict {
  if (w.status === "failed" || w.riskLevel === null) return "review";
  if (w.riskLevel === "critical") return "match";
  return w.riskLevel === "high" || w.riskLevel === "medium" ? "review" : "clear";
}

export async function screenWithWallets(
  analysis: AnalysisContext,
  projectId: number,
  input: {
    person: PersonInput;
    addresses: { address: string; chainId: string }[];
    maxDepth: number;
  },
  screenOne: (person: PersonInput) => Promise<PersonResult>,
): Promise<Static<typeof CombinedResponse>> {
  const person = await screenOne(input.person);
  const wallets =
    input.addresses.length === 0
      ? { summary: { total: 0, completed: 0, skipped: 0, failed: 0, duration: 0 }, results: [] }
      : await scanRisk(analysis, {
          projectId,
          addresses: input.addresses,
          maxDepth: input.maxDepth,
          skipExisting: true,
        });
  const reasons: string[] = [];
  if (person.verdict !== "clear") {
    const best = person.candidates[0];
    reasons.push(
      `${person.name}: ${person.verdict}${best ? `, ${best.matchedName} on ${best.list} (${best.entryId}) at ${best.score}` : ""}`,
    );
  }
  const walletVerdicts = wallets.results.map((w) => {
    const v = walletVerdict(w);
    if (v !== "clear")
      reasons.push(
        w.status === "failed"
          ? `wallet ${w.address} on chain ${w.chainId} could not be analysed: ${w.error ?? w.riskReason}`
          : `wallet ${w.address} on chain ${w.chainId}: ${w.riskLevel} (${w.riskScore}): ${w.riskReason}`,
      );
    return v;
  });
  return {
    verdict: worstVerdict([person.verdict, ...walletVerdicts]),
    reasons,
    person,
    wallets,
  };
}
