// How well the service inferred the world's exchange deposit addresses (src/attribution), against the generator's
// truth: an inferred address counts as right when it is a deposit address of the same exchange. Pure. Targets:
// precision at least 0.98, recall at least 0.90.
export const DEPOSIT_TARGET = { precision: 0.98, recall: 0.9 };

export interface DepositInference {
  truth: number;
  inferred: number;
  /** inferred, and a deposit address of that exchange */
  right: number;
  /** inferred, but of another exchange */
  wrongExchange: number;
  /** inferred, but not a deposit address at all */
  notDeposits: string[];
  precision: number;
  recall: number;
  passed: boolean;
}

export function scoreDeposits(
  truth: readonly { address: string; exchange: string }[],
  inferred: readonly { address: string; exchange: string }[],
): DepositInference {
  const byAddress = new Map(truth.map((t) => [t.address.toLowerCase(), t.exchange.toLowerCase()]));
  let right = 0;
  let wrongExchange = 0;
  const notDeposits: string[] = [];
  for (const i of inferred) {
    const exchange = byAddress.get(i.address.toLowerCase());
    if (exchange === undefined) notDeposits.push(i.address);
    else if (exchange === i.exchange.toLowerCase()) right++;
    else wrongExchange++;
  }
  const precision = inferred.length ? right / inferred.length : 1;
  const recall = truth.length ? right / truth.length : 1;
  return {
    truth: truth.length,
    inferred: inferred.length,
    right,
    wrongExchange,
    notDeposits,
    precision,
    recall,
    passed: precision >= DEPOSIT_TARGET.precision && recall >= DEPOSIT_TARGET.recall,
  };
}
