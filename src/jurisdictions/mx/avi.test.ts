// AVI files against the official XSD (avi.xsd, with xmllint): a persona física with a national address, a persona
// moral with its representative, a fideicomiso with its fiduciary delegate and a foreign address, a token outside
// the asset catalog, and an informe en ceros; and the profiles that break the person-type rules, refused with a
// reason that names the field.
import { describe, expect, it } from "vitest";
import type { ClientOperation } from "../../regulation/index.ts";
import type { Profile } from "../profile.ts";
import { type AviAviso, aviFile, zeroInforme } from "./avi.ts";
import { MISSING_SURNAME } from "./person.ts";
import { validateAvi } from "./validate.ts";

const ENTITY = { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" };
const valued = (priceUsd: number | null, perUsd: number | null) => ({
  MX: { day: "2026-09-15", priceUsd, currency: "MXN", perUsd },
});
const op = (over: Partial<ClientOperation> = {}): ClientOperation => ({
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
  tokenName: "Ether",
  decimals: 18,
  value: 1_234_567_890_123_456_789n,
  valuations: valued(2500, 18.5),
  laws: ["MX-AVISO"],
  unjudged: null,
  internal: false,
  addressJurisdiction: null,
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
      valuations: valued(1, 18.5),
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

  it("reports a Bitcoin payment with the catalog's BTC code, its satoshis as BTC and its txid as Bitcoin writes it", async () => {
    const txid = "7940cdde4d713e171849efc6bd89939185be270266c94e92369e3877ad89455a";
    const btc = op({
      chainId: 177_005_167,
      txHash: txid,
      logIndex: 0,
      address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      counterparty: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
      symbol: "BTC",
      tokenName: "Bitcoin",
      decimals: 8,
      value: 12_345_678n,
      valuations: valued(100_000, 18.5),
    });
    const file = aviFile({
      period: "2026-09",
      entity: ENTITY,
      userId: "user_01",
      profile: PROFILES.fisica as Profile,
      avisos: [aviso(btc)],
    });
    if (!file.ok) throw new Error(file.reason);
    await expectValid(file.xml);
    expect(file.xml).toContain("<activo_virtual_operado>1001</activo_virtual_operado>");
    expect(file.xml).not.toContain("<descripcion_activo_virtual>");
    expect(file.xml).toContain("<cantidad_activo_virtual>0.12345678</cantidad_activo_virtual>");
    expect(file.xml).toContain("<tipo_cambio_mn>1850000.00</tipo_cambio_mn>");
    expect(file.xml).toContain(`<hash_operacion>${txid.toUpperCase()}</hash_operacion>`);
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
    expect(refused({ ...fisica, maternalSurname: "", paternalSurname: "" })).toContain("`paternalSurname`");
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
      avisos: [aviso(op({ valuations: valued(null, 18.5) }))],
    });
    expect(file.ok ? "" : file.reason).toContain("no USD price");
  });
});

describe("names, identifiers and beneficial owners", () => {
  const fisica = PROFILES.fisica as Profile;
  const build = (profile: Profile) => {
    const file = aviFile({ period: "2026-09", entity: ENTITY, userId: "u", profile, avisos: [aviso()] });
    if (!file.ok) throw new Error(file.reason);
    return file.xml;
  };

  it("reports a foreigner with one surname, with XXXX as apellido_materno, and the file validates", async () => {
    const xml = build({
      ...fisica,
      givenName: "John",
      paternalSurname: "Smith",
      maternalSurname: undefined,
      nationality: "US",
      mexico: { ...fisica.mexico, rfc: undefined, curp: undefined },
    });
    expect(xml).toContain("<apellido_paterno>SMITH</apellido_paterno>");
    expect(xml).toContain(`<apellido_materno>${MISSING_SURNAME}</apellido_materno>`);
    expect(xml).toContain("<pais_nacionalidad>US</pais_nacionalidad>");
    await expectValid(xml);
  });

  it("takes the one surname given as the first, wherever the profile put it", () => {
    const xml = build({ ...fisica, paternalSurname: "", maternalSurname: "Okafor" });
    expect(xml).toContain("<apellido_paterno>OKAFOR</apellido_paterno>");
    expect(xml).toContain(`<apellido_materno>${MISSING_SURNAME}</apellido_materno>`);
  });

  it("keeps the words of hyphenated and apostrophe names apart, and Ñ, as the XSD's letters allow", async () => {
    const xml = build({
      ...fisica,
      givenName: "María-José",
      paternalSurname: "O'Neill",
      maternalSurname: "Peña",
    });
    expect(xml).toContain("<nombre>MARIA JOSE</nombre>");
    expect(xml).toContain("<apellido_paterno>O NEILL</apellido_paterno>");
    expect(xml).toContain("<apellido_materno>PEÑA</apellido_materno>");
    await expectValid(xml);
  });

  it("keeps the hyphens, commas and periods of a company name, which the XSD allows there", () => {
    const moral = PROFILES.moral as Profile;
    const xml = build({ ...moral, denominacionRazon: "Añil-Export, S.A. de C.V." });
    expect(xml).toContain("<denominacion_razon>AÑIL-EXPORT, S.A. DE C.V.</denominacion_razon>");
  });

  it("refuses an RFC or CURP whose date is not the birth date, naming both fields", () => {
    const refused = (profile: Profile) => {
      const file = aviFile({ period: "2026-09", entity: ENTITY, userId: "u", profile, avisos: [aviso()] });
      return file.ok ? "accepted" : `${file.field}: ${file.reason}`;
    };
    expect(refused({ ...fisica, birthdate: "1980-03-01" })).toMatch(
      /^mexico\.rfc: .*`birthdate` \(1980-03-01\)/,
    );
    expect(
      refused({ ...fisica, mexico: { ...fisica.mexico, rfc: undefined }, birthdate: "1980-02-28" }),
    ).toMatch(/^mexico\.curp: .*its date part is 800229/);
    // A CURP of a birth in 1980 with a letter in position 17 (which RENAPO gives from 2000 on).
    expect(
      refused({ ...fisica, mexico: { ...fisica.mexico, rfc: undefined, curp: "MUAI800229HDFXVNA8" } }),
    ).toMatch(/^mexico\.curp: .*17th character is a letter/);
    const moral = PROFILES.moral as Profile;
    expect(refused({ ...moral, fechaConstitucion: "1999-12-30" })).toMatch(
      /^mexico\.rfc: .*`fechaConstitucion`/,
    );
  });

  it("refuses the SAT's generic RFCs (general public, foreigners) with or without a birthdate: they identify no one", () => {
    const refused = (profile: Profile) => {
      const file = aviFile({ period: "2026-09", entity: ENTITY, userId: "u", profile, avisos: [aviso()] });
      return file.ok ? "accepted" : `${file.field}: ${file.reason}`;
    };
    for (const rfc of ["XAXX010101000", "XEXX010101000", "xaxx010101000"])
      for (const birthdate of [undefined, "2001-01-01", "1980-02-29"]) {
        const profile = {
          ...fisica,
          birthdate,
          mexico: { ...fisica.mexico, rfc, curp: undefined },
        } as Profile;
        expect(refused(profile), `${rfc} ${birthdate}`).toMatch(
          /^mexico\.rfc: `mexico\.rfc` is X[AE]XX010101000, the SAT's generic RFC .* identifies no one/,
        );
      }
  });

  it("writes the beneficial owners the profile gives (a person and a company), and the file validates", async () => {
    const moral = PROFILES.moral as Profile;
    const xml = build({
      ...moral,
      beneficiarioControlador: [
        {
          givenName: "Rosa",
          paternalSurname: "Díaz",
          maternalSurname: "Luna",
          birthdate: "1975-05-05",
          nationality: "MX",
        },
        { tipoPersona: "moral", denominacionRazon: "Holding Añil, S.A.", nationality: "ES" },
      ],
    });
    expect(xml).toContain("<dueno_beneficiario>");
    expect(xml).toContain("<nombre>ROSA</nombre>");
    expect(xml).toContain("<denominacion_razon>HOLDING AÑIL, S.A.</denominacion_razon>");
    expect(xml.indexOf("<dueno_beneficiario>")).toBeLessThan(xml.indexOf("<detalle_operaciones>"));
    await expectValid(xml);
  });

  it("refuses a beneficial owner without a nationality, naming the field", () => {
    const file = aviFile({
      period: "2026-09",
      entity: ENTITY,
      userId: "u",
      profile: { ...fisica, beneficiarioControlador: { givenName: "Rosa", paternalSurname: "Díaz" } },
      avisos: [aviso()],
    });
    expect(file.ok ? "" : file.field).toBe("beneficiarioControlador.nationality");
  });
});
