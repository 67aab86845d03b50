// A Tron wallet in Mexico's AVI (docs/reports/mx.md): the file's alphabet is `[A-Z0-9]`, so base58check, whose case
// is the address, cannot be written; the client's account and the counterparty named in the alert's description go
// in Tron's hex form (`41` and the 20 bytes), from which the address is recovered by decoding it. The real chain
// registry of a test service (its Tron chain), the real writer of the 24-hour aviso, the official XSD.
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEXICO } from "../../src/jurisdictions/index.ts";
import { MX_URGENT } from "../../src/jurisdictions/mx/urgent.ts";
import { validateAvi } from "../../src/jurisdictions/mx/validate.ts";
import type { ClientOperation } from "../../src/regulation/index.ts";
import { asChainWrites } from "../../src/reports/written-addresses.ts";
import { mexican } from "../jurisdictions/cases/profiles.ts";
import { startTestService, type TestService } from "../support/service.ts";

const TRON = 728126428;
const CLIENT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const COUNTERPARTY = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.close();
});

const stored = (address: string) => {
  const parsed = svc.registry.parseAddress(TRON, address);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.address;
};

describe("a Tron wallet in the AVI", () => {
  it("is written in hex (41…) and decodes back to the base58check address; other files keep base58check", async () => {
    const op: ClientOperation = {
      addressId: 1,
      chainId: TRON,
      txHash: `0x${"cd".repeat(32)}`,
      logIndex: 0,
      blockTime: new Date("2026-12-02T16:00:00Z"),
      userId: "user_tron",
      address: stored(CLIENT),
      direction: "in",
      counterparty: stored(COUNTERPARTY),
      token: "native",
      symbol: "TRX",
      tokenName: "Tron",
      decimals: 6,
      value: 10n ** 9n,
      valuations: { MX: { day: "2026-12-02", priceUsd: 0.25, currency: "MXN", perUsd: 18 } },
      laws: ["MX-24H-INDICIOS"],
      unjudged: null,
      internal: false,
      addressJurisdiction: null,
    };
    expect(asChainWrites(svc.registry, [op])[0]?.address).toBe(CLIENT);
    const [written] = asChainWrites(svc.registry, [op], MEXICO);
    const built = MX_URGENT.build({
      settings: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
      operation: written as ClientOperation,
      profile: mexican() as never,
      period: "2026-12",
    });
    if (!built.ok) throw new Error(built.blocked.reason);
    const rendered = built.file.render(undefined);
    if (!rendered.ok || !rendered.content) throw new Error("not rendered");
    const xml = rendered.content.toString("utf8");
    expect(await validateAvi(xml)).toEqual({ valid: true });
    const aviso = new XMLParser({ parseTagValue: false }).parse(xml).archivo.informe.aviso;
    const account = aviso.operaciones_persona.persona_aviso.datos_cuenta_plataforma
      .cuenta_relacionada as string;
    expect(account).toMatch(/^41[0-9A-F]{40}$/);
    const decode = (hex41: string) => svc.registry.codec(TRON).present(`0x${hex41.slice(2).toLowerCase()}`);
    expect(decode(account)).toBe(CLIENT);
    const named = /LA CONTRAPARTE (41[0-9A-F]{40}) /.exec(aviso.alerta.descripcion_alerta)?.[1] as string;
    expect(decode(named)).toBe(COUNTERPARTY);
  });
});
