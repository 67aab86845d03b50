// AVI files against the official XSD (avi.xsd, with xmllint): a persona física with a national address, a persona
// moral with its representative, a fideicomiso with its fiduciary delegate and a foreign address, a token outside
// the asset catalog, and an informe en ceros; and the profiles that break the person-type rules, refused with a
// reason that names the field.
import { describe, expect, it } from "vitest";
import type { Profile } from "../../monitoring/index.ts";
import type { ReportOperation } from "../operations.ts";
import { type AviAviso, aviFile, zeroInforme } from "./avi.ts";
import { validateAvi } from "./validate.ts";

const ENTITY = { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" };
const op = (over: Partial<ReportOperation> = {}): ReportOperation => ({
  addressId: 1,
  chainId: 1,
  txHash: `0x${"ab".repeat(32)}`,
  logIndex: -1,
  blockTime: new Date("2026-09-15T20:30:00Z"),
  userId: "user_01",
  address: `0x${"12".repeat(20)}`,
  direction: "out",
  counterparty: `0x${"34".repeat(20)}`,
  token: "native",
  symbol: "ETH",
  decimals: 18,
  value: 1_234_567_890_123_456_789n,
  priceUsd: 2500,
  mxnPerUsd: 18.5,
  laws: ["MX-AV-210"],
  ...over,
});
const aviso = (o = op()): AviAviso => ({ prioridad: 1, alert: { code: 100 }, anchor: o, operations: [o] });
const doc = { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX0001" };
const person = { givenName: "Iñaki", paternalSurname: "Muñoz", maternalSurname: "Ávila" };

const PROFILES: Record<string, Profile> = {
  fisica: {
    ...person,
    birthdate: "1980-02-29",
    nationality: "MX",
    email: "inaki@example.mx",
    phoneNumber: { countryCode: "52", phoneNumber: 5511112222 },
    address: { country: "MX", colonia: "Centro", street: "Madero", exteriorNumber: "5", postalCode: "06000" },
    mexico: {
      rfc: "MUAI800229AB1",
      curp: "MUAI800229HDFXVN08",
      actividadEconomica: 8250100,
      documentoIdentificacion: doc,
    },
  },
  moral: {
    tipoPersona: "moral",
    denominacionRazon: "Exportadora Añil, S. de R.L.",
    nationality: "MX",
    mexico: { rfc: "EAN991231Q12", giroMercantil: 4610001 },
    representanteApoderado: { ...person, curp: "MUAI800229HDFXVN08", documentoIdentificacion: doc },
  },
  fideicomiso: {
    tipoPersona: "fideicomiso",
    denominacionRazon: "Fideicomiso Irrevocable 55",
    nationality: "ES",
    address: {
      country: "GB",
      region: "Greater London",
      city: "London",
      colonia: "Westminster",
      street: "Whitehall",
      exteriorNumber: "10",
      postalCode: "SW1A 2AA",
    },
    mexico: { rfc: "FIR010101AA1" },
    delegadoFiduciario: { ...person, rfc: "MUAI800229AB1", documentoIdentificacion: doc },
  },
};

async function expectValid(xml: string) {
  const check = await validateAvi(xml);
  expect(check).toEqual({ valid: true });
}

describe("AVI files against the official XSD", () => {
  for (const [kind, profile] of Object.entries(PROFILES)) {
    it(`validates a ${kind}`, async () => {
      const file = aviFile({
        period: "2026-09",
        entity: ENTITY,
        userId: "user_01",
        profile,
        avisos: [aviso()],
      });
      expect(file.ok).toBe(true);
      if (!file.ok) return;
      await expectValid(file.xml);
      expect(file.xml).toContain(
        `<${kind === "fisica" ? "persona_fisica" : kind === "moral" ? "persona_moral" : "fideicomiso"}>`,
      );
    });
  }

  it("writes the formats: Mexico City time, two-decimal amounts, ten-decimal quantities, upper-case hashes", () => {
    const file = aviFile({
      period: "2026-09",
      entity: ENTITY,
      userId: "user_01",
      profile: PROFILES.fisica as Profile,
      avisos: [aviso()],
    });
    if (!file.ok) throw new Error(file.reason);
    expect(file.xml).toContain("<fecha_hora_operacion>20260915143000</fecha_hora_operacion>");
    expect(file.xml).toContain("<cantidad_activo_virtual>1.2345678901</cantidad_activo_virtual>");
    expect(file.xml).toContain("<tipo_cambio_mn>46250.00</tipo_cambio_mn>");
    expect(file.xml).toContain("<monto_operacion_mn>57098.76</monto_operacion_mn>");
    expect(file.xml).toContain(`<hash_operacion>0X${"AB".repeat(32)}</hash_operacion>`);
    expect(file.xml).toContain("<nombre>IÑAKI</nombre>");
    expect(file.xml).toContain("<apellido_materno>AVILA</apellido_materno>");
    expect(file.xml).toContain("<id_usuario>USER_01</id_usuario>");
    expect(file.xml).toContain("<correo_electronico>INAKI@EXAMPLE.MX</correo_electronico>");
  });

  it("maps the United Kingdom to the SAT's UK and describes a token outside the catalog", async () => {
    const usdt = op({
      token: `0x${"dd".repeat(20)}`,
      symbol: "USDT",
      decimals: 6,
      value: 2_500_000_000n,
      priceUsd: 1,
    });
    const file = aviFile({
      period: "2026-09",
      entity: ENTITY,
      userId: "user_01",
      profile: PROFILES.fideicomiso as Profile,
      avisos: [aviso(usdt)],
    });
    if (!file.ok) throw new Error(file.reason);
    await expectValid(file.xml);
    expect(file.xml).toContain("<pais>UK</pais>");
    expect(file.xml).toContain("<activo_virtual_operado>999999</activo_virtual_operado>");
    expect(file.xml).toContain("<descripcion_activo_virtual>USDT</descripcion_activo_virtual>");
  });

  it("validates an informe en ceros, and the XSD catches a reporting entity it does not accept", async () => {
    await expectValid(zeroInforme("2026-02", ENTITY));
    const check = await validateAvi(
      zeroInforme("2026-02", { ...ENTITY, clave_sujeto_obligado: "VIG151301AB1" }),
    );
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.errors[0]).toContain("clave_sujeto_obligado");
  });
});

describe("profiles that break the person-type rules", () => {
  const refused = (profile: Profile) => {
    const file = aviFile({
      period: "2026-09",
      entity: ENTITY,
      userId: "u",
      profile,
      avisos: [aviso()],
    });
    return file.ok ? "accepted" : file.reason;
  };
  const fisica = PROFILES.fisica as Profile;
  const moral = PROFILES.moral as Profile;
  const fideicomiso = PROFILES.fideicomiso as Profile;

  it("says which field is missing or wrong", () => {
    expect(refused({ ...fisica, mexico: undefined })).toContain("`mexico`");
    expect(
      refused({
        ...fisica,
        birthdate: undefined,
        mexico: { actividadEconomica: 8250100, documentoIdentificacion: doc },
      }),
    ).toBe("a persona física needs `mexico.rfc`, `mexico.curp` or `birthdate`");
    expect(refused({ ...fisica, maternalSurname: "" })).toContain("`maternalSurname`");
    expect(refused({ ...fisica, mexico: { ...fisica.mexico, rfc: "ABC" } })).toContain(
      "`mexico.rfc` is not the RFC",
    );
    expect(refused({ ...fisica, mexico: { ...fisica.mexico, actividadEconomica: 123 } })).toContain(
      "`mexico.actividadEconomica`",
    );
    expect(refused({ ...moral, representanteApoderado: undefined })).toBe(
      "a persona moral needs `representanteApoderado`",
    );
    expect(refused({ ...moral, mexico: { giroMercantil: 4610001 } })).toBe(
      "a persona moral needs `mexico.rfc` or `fechaConstitucion`",
    );
    expect(refused({ ...fideicomiso, delegadoFiduciario: undefined })).toBe(
      "a fideicomiso needs `delegadoFiduciario`",
    );
    expect(refused({ ...fideicomiso, mexico: {} })).toBe(
      "a fideicomiso needs `mexico.rfc` or `mexico.identificadorFideicomiso`",
    );
    expect(
      refused({ ...moral, representanteApoderado: { ...person, documentoIdentificacion: undefined } }),
    ).toContain("`representanteApoderado.documentoIdentificacion`");
  });

  it("refuses an operation without a price: its aviso needs the MXN amount", () => {
    expect(refused(fisica)).toBe("accepted");
    const file = aviFile({
      period: "2026-09",
      entity: ENTITY,
      userId: "u",
      profile: fisica,
      avisos: [aviso(op({ priceUsd: null }))],
    });
    expect(file.ok ? "" : file.reason).toContain("no USD price");
  });
});
