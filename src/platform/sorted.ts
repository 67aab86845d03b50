// Binary search over a sorted array of numbers, for the code outside the risk core (which keeps its own, having
// no imports beyond itself).

/** The first index whose value is >= x in `sorted` (ascending); its length when there is none. */
export function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
