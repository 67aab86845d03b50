// Writes the stored addresses inside an answer as their chains write them (codec.ts), for answers that carry their
// chain: an object with a `chainId`, `chain_id` or `chain` (a number or a decimal string) sets the chain for itself
// and everything under it; the request's own chain (its query, body or path `chainId`) sets it for the whole
// answer. Stored addresses are exact-match strings, object keys (a graph's nodes) and addresses inside text.
// EVM chains' codec writes the stored form, so answers about EVM chains pass through as they are.
import { type AddressCodec, presentInText } from "./codec.ts";

const STORED = /^0x[0-9a-fA-F]{40}$/;
const CHAIN_KEYS = ["chainId", "chain_id", "chain"] as const;

/** The chain id an object names for itself (under `keys`: by default every name an answer gives it), if any. */
export function chainOf(
  value: Record<string, unknown>,
  keys: readonly string[] = CHAIN_KEYS,
): number | undefined {
  for (const key of keys) {
    const id = value[key];
    if (typeof id === "number" && Number.isInteger(id)) return id;
    if (typeof id === "string" && /^[1-9][0-9]{0,15}$/.test(id)) return Number(id);
  }
  return undefined;
}

function presentString(codec: AddressCodec, value: string): string {
  return STORED.test(value) ? codec.present(value) : presentInText(codec, value);
}

/**
 * The answer with its addresses written per chain; the same object when nothing in it concerns a chain of another
 * kind than EVM. Every JSON answer passes here: most concern EVM chains only, and are then looked through without
 * copying anything (a copy of each object cost more than the walk).
 */
export function presentAddresses(
  value: unknown,
  codecOf: (chainId: number) => AddressCodec,
  codec: AddressCodec | undefined,
): unknown {
  return concernsOtherKinds(value, codecOf, codec) ? present(value, codecOf, codec) : value;
}

const isPlainValue = (value: unknown) =>
  value === null || typeof value !== "object" || value instanceof Date || Buffer.isBuffer(value);

/** Whether some string or key of the value lies under a chain of another kind than EVM (nothing is allocated). */
function concernsOtherKinds(
  value: unknown,
  codecOf: (chainId: number) => AddressCodec,
  codec: AddressCodec | undefined,
): boolean {
  if (typeof value === "string") return codec !== undefined && codec.kind !== "evm";
  if (Array.isArray(value)) {
    for (const item of value) if (concernsOtherKinds(item, codecOf, codec)) return true;
    return false;
  }
  if (isPlainValue(value)) return false;
  const record = value as Record<string, unknown>;
  const own = chainOf(record);
  const here = own === undefined ? codec : codecOf(own);
  if (here !== undefined && here.kind !== "evm") return true;
  for (const key of Object.keys(record)) if (concernsOtherKinds(record[key], codecOf, here)) return true;
  return false;
}

function present(
  value: unknown,
  codecOf: (chainId: number) => AddressCodec,
  codec: AddressCodec | undefined,
): unknown {
  if (typeof value === "string") return codec && codec.kind !== "evm" ? presentString(codec, value) : value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = present(item, codecOf, codec);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (isPlainValue(value)) return value;
  const record = value as Record<string, unknown>;
  const own = chainOf(record);
  const here = own === undefined ? codec : codecOf(own);
  const rename = here !== undefined && here.kind !== "evm";
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    const name = rename && STORED.test(key) ? (here as AddressCodec).present(key) : key;
    const next = present(item, codecOf, here);
    if (name !== key || next !== item) changed = true;
    out[name] = next;
  }
  return changed ? out : value;
}
