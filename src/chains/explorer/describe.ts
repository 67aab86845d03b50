// The line a starting process prints about address histories: which chains ask which explorer host, which read
// the store only, and whether public explorers are on (an operator reading the start sees who learns what).
import type { ChainConfig } from "../registry.ts";
import type { ExplorerSource } from "./config.ts";

export function describeHistorySources(
  chains: readonly ChainConfig[],
  sourceOf: (chain: ChainConfig) => ExplorerSource | undefined,
  publicExplorers: boolean,
): string {
  const asking: string[] = [];
  const none: string[] = [];
  let byDefault = false;
  for (const chain of chains) {
    const source = sourceOf(chain);
    const name = `${chain.name} (${chain.id})`;
    if (!source) {
      none.push(name);
      continue;
    }
    byDefault ||= source.origin !== "explorer_api_url";
    const how =
      source.origin === "blockscout_url"
        ? " (blockscout_url)"
        : source.origin === "tron_default"
          ? " (Tron's default)"
          : "";
    asking.push(`${name} from ${source.baseUrl.host}${how}`);
  }
  const parts = [asking.length > 0 ? asking.join(", ") : "no chain asks an explorer"];
  if (none.length > 0) parts.push(`the store only for ${none.join(", ")}`);
  const note = publicExplorers
    ? byDefault
      ? " (VIGIA_PUBLIC_EXPLORERS=false stops asking blockscout_url instances, which see the addresses analysed)"
      : ""
    : " (public explorers off: VIGIA_PUBLIC_EXPLORERS=false)";
  return `Address histories: ${parts.join("; ")}${note}`;
}
