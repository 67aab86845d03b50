// The 24-hour aviso's alert (urgent.ts): a client on the UIF's Lista de Personas Bloqueadas is alert type 4107 with
// the rule MX-LPB named, before a listed counterparty (4122) or indicia (4114) of the same operation; each file valid
// against the official XSD.
import { describe, expect, it } from "vitest";
import type { ClientOperation } from "../../regulation/index.ts";
import { MX_URGENT } from "./urgent.ts";
import { validateAvi } from "./validate.ts";

const SETTINGS = { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" };
const PROFILE = {
  givenName: "Mario",
  paternalSurname: "López",
  maternalSurname: "Ruiz",
  birthdate: "1990-01-02",
  nationality: "MX",
  address: { country: "MX", colonia: "Centro", street: "Madero", exteriorNumber: "5", postalCode: "06000" },
  mexico: {
    rfc: "LORM900102AB1",
    curp: "LORM900102HDFPZR01",
    actividadEconomica: 8250100,
    documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1234567" },
  },
};
const op = (laws: string[]): ClientOperation => ({
  addressId: 1,
  chainId: 1,
  txHash: `0x${"ab".repeat(32)}`,
  logIndex: -1,
  blockTime: new Date("2026-12-02T16:00:00Z"),
  userId: "user_01",
  address: `0x${"12".repeat(20)}`,
  direction: "in",
  counterparty: `0x${"34".repeat(20)}`,
  token: "native",
  symbol: "ETH",
  tokenName: "Ether",
  decimals: 18,
  value: 10n ** 16n,
  valuations: { MX: { day: "2026-12-02", priceUsd: 3000, currency: "MXN", perUsd: 18 } },
  laws,
  unjudged: null,
  internal: false,
  addressJurisdiction: null,
});

async function aviso(laws: string[]): Promise<string> {
  const built = MX_URGENT.build({
    settings: SETTINGS,
    operation: op(laws),
    profile: PROFILE,
    period: "2026-12",
  });
  if (!built.ok) throw new Error(built.blocked.reason);
  const rendered = built.file.render(undefined);
  if (!rendered.ok || !rendered.content) throw new Error("not rendered");
  const xml = rendered.content.toString("utf8");
  expect(await validateAvi(xml)).toEqual({ valid: true });
  return xml;
}

describe("the 24-hour aviso's alert", () => {
  it("a client on the LPB: 4107, naming MX-LPB, even with a listed counterparty", async () => {
    for (const laws of [["MX-LPB"], ["MX-24H-LISTA", "MX-LPB"]]) {
      const xml = await aviso(laws);
      expect(xml).toMatch(/<tipo_alerta>4107<\/tipo_alerta>/);
      // freeText keeps letters, digits and spaces: the parentheses go.
      expect(xml).toMatch(
        /<descripcion_alerta>EL CLIENTE ESTA EN LA LISTA DE PERSONAS BLOQUEADAS DE LA UIF REGLA MX-LPB</,
      );
    }
  });

  it("a listed counterparty alone: 4122", async () => {
    expect(await aviso(["MX-24H-LISTA"])).toMatch(/<tipo_alerta>4122<\/tipo_alerta>/);
  });

  it("a counterparty labelled illicit or a mixer: 4114, the label said as a fact, not a finding of illicit origin", async () => {
    const xml = await aviso(["MX-24H-INDICIOS"]);
    expect(xml).toMatch(/<tipo_alerta>4114<\/tipo_alerta>/);
    expect(xml).toMatch(
      /ESTA SENALADA EN FUENTES DE ETIQUETAS COMO ACTIVIDAD ILICITA, LISTA DE BLOQUEO O MEZCLADOR/,
    );
    expect(xml).not.toMatch(/TIENE INDICIOS|ORIGEN ILICITO/);
  });
});
