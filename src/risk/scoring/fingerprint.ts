// A short, stable fingerprint of a configuration (FNV-1a over a canonical JSON with sorted keys and bigints as
// strings), recorded with every result so that two scores can be told to come from the same settings. The hash
// runs over text in pieces as well as whole (fnv1a carries its state on), for configurations built from parts
// (config.ts).

export const FNV_OFFSET = 0x811c9dc5;

export function fingerprint(value: unknown): string {
  return hex(fnv1a(canonical(value), FNV_OFFSET));
}

/** FNV-1a over `text`, from the state `h` (FNV_OFFSET to start). */
export function fnv1a(text: string, h: number): number {
  let state = h;
  for (let i = 0; i < text.length; i++) {
    state ^= text.charCodeAt(i);
    state = Math.imul(state, 0x01000193) >>> 0;
  }
  return state;
}

export const hex = (state: number) => state.toString(16).padStart(8, "0");

export function canonical(value: unknown): string {
  if (typeof value === "bigint") return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
