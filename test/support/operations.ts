// The monitor of the exchange's operations run to the end in a test, as the workers run it: the service's own
// quick analysis for the withdrawals' destinations and its integrator's profiles (read on 127.0.0.1).
import { quickVerdict } from "../../src/analysis/index.ts";
import { clabeCheckDigit, judgeOperationsOnce } from "../../src/exchange-operations/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import type { TestService } from "./service.ts";

/** Judges every operation waiting; `natives`: a coin's symbol → the chains whose coin it is. */
export async function judgeAllOperations(
  svc: TestService,
  natives: ReadonlyMap<string, readonly number[]> = new Map(),
): Promise<void> {
  const profiles = new ProfileReader(
    { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
    { ttlMs: 0, failureBackoffMs: 0 },
  );
  const step = () =>
    judgeOperationsOnce({
      db: svc.database.db,
      registry: svc.registry,
      natives: () => natives,
      readProfile: (projectId, userId) => profiles.read(projectId, userId),
      destinationVerdict: async (projectId, chainId, address) => {
        const v = await quickVerdict(svc.analysis, projectId, address, chainId);
        return v.level === null || v.score === null
          ? null
          : { level: v.level, score: v.score, reason: v.reason };
      },
    });
  for (let i = 0; i < 100 && (await step()) > 0; i++);
}

/** A valid CLABE of BBVA México in Mexico City (bank 012, city 180) for a serial: its 18th digit the check digit. */
export function validClabe(serial: number): string {
  const first17 = `0121800${String(serial).padStart(10, "0")}`;
  return first17 + clabeCheckDigit(first17);
}
