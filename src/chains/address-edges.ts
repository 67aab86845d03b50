// The address codec at the HTTP edge: every JSON answer passes through presentAddresses (address/present.ts), so
// an answer about a Tron chain names its addresses in base58check whatever room built it, and rooms keep working on
// the stored form. Requests are parsed where each route reads its address, with the chain's codec
// (ChainRegistry.codec), which names what is wrong with an address it refuses.
import type { HttpApp } from "../platform/http/app.ts";
import { chainOf, presentAddresses } from "./address/present.ts";
import type { ChainRegistry } from "./registry.ts";

/** The chain a request names in its path, query or body (`chainId`), if any. */
function requestChain(request: { params: unknown; query: unknown; body: unknown }): number | undefined {
  for (const part of [request.params, request.query, request.body]) {
    const id =
      part !== null && typeof part === "object"
        ? chainOf(part as Record<string, unknown>, ["chainId"])
        : undefined;
    if (id !== undefined) return id;
  }
  return undefined;
}

export function presentAddressesPerChain(app: HttpApp, registry: ChainRegistry): void {
  // With EVM chains only, every answer is already written as its chains write it.
  if (!registry.hasOtherKinds()) return;
  const codecOf = (id: number) => registry.codec(id);
  app.addHook("preSerialization", async (request, _reply, payload) => {
    const chain = requestChain(request);
    return presentAddresses(payload, codecOf, chain === undefined ? undefined : codecOf(chain));
  });
}
