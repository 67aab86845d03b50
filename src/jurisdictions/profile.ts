// The integrator's profile of a client (`GET {integration_url}/users/{foreign_user_id}`, docs/api.md, "User
// profiles"), as the jurisdictions read it: the person (names, birthdate, nationality, address), the person type for
// Mexico (persona moral or fideicomiso, with the representative or fiduciary delegate), the beneficial owners, and
// the data each country's files need (`mexico`, `colombia`). Extra fields are ignored. Which country governs the
// client (governing.ts) is read from `address.country` or `nationality`.
import { type Static, Type } from "@sinclair/typebox";

const Str = Type.String();
const Identification = Type.Object({ tipoIdentificacion: Type.Number(), numeroIdentificacion: Str });
const Person = Type.Object({
  givenName: Str,
  paternalSurname: Str,
  // A person with one surname (docs/reports/mx.md, "Names and identifiers") has none here.
  maternalSurname: Type.Optional(Str),
  birthdate: Type.Optional(Str),
  rfc: Type.Optional(Str),
  curp: Type.Optional(Str),
  documentoIdentificacion: Type.Optional(Identification),
});

/** A beneficial owner (beneficiario controlador): a person, or a legal entity or trust in a chain of control. */
const BeneficialOwner = Type.Object({
  tipoPersona: Type.Optional(
    Type.Union([Type.Literal("fisica"), Type.Literal("moral"), Type.Literal("fideicomiso")], {
      description: "default fisica",
    }),
  ),
  givenName: Type.Optional(Str),
  paternalSurname: Type.Optional(Str),
  maternalSurname: Type.Optional(Str),
  birthdate: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
  rfc: Type.Optional(Str),
  curp: Type.Optional(Str),
  nationality: Type.Optional(Type.String({ pattern: "^[A-Za-z]{2}$" })),
  denominacionRazon: Type.Optional(Str),
  fechaConstitucion: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
  identificadorFideicomiso: Type.Optional(Str),
});
export type BeneficialOwner = Static<typeof BeneficialOwner>;

export const ProfileSchema = Type.Object({
  givenName: Type.Optional(Str),
  maternalSurname: Type.Optional(Str),
  paternalSurname: Type.Optional(Str),
  birthdate: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
  nationality: Type.Optional(Type.String({ pattern: "^[A-Za-z]{2}$" })),
  phoneNumber: Type.Optional(Type.Object({ countryCode: Str, phoneNumber: Type.Number() })),
  email: Type.Optional(Str),
  address: Type.Optional(
    Type.Object({
      country: Type.Optional(Str),
      region: Type.Optional(Str),
      city: Type.Optional(Str),
      street: Type.Optional(Str),
      colonia: Type.Optional(Str),
      exteriorNumber: Type.Optional(Str),
      interiorNumber: Type.Optional(Str),
      postalCode: Type.Optional(Str),
    }),
  ),
  tipoPersona: Type.Optional(Type.Union([Type.Literal("moral"), Type.Literal("fideicomiso")])),
  denominacionRazon: Type.Optional(Str),
  fechaConstitucion: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
  representanteApoderado: Type.Optional(Person),
  delegadoFiduciario: Type.Optional(Person),
  beneficiarioControlador: Type.Optional(
    Type.Union([BeneficialOwner, Type.Array(BeneficialOwner, { maxItems: 20 })], {
      description:
        "the beneficial owner(s) (LFPIORPI Art. 3-III, Art. 18-III): who ultimately owns or controls the client",
    }),
  ),
  knownPayers: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.Optional(Str),
        taxId: Type.Optional(Str),
        account: Type.Optional(Str),
        relation: Type.Optional(
          Type.String({
            description: "what the payer is to the client: `employer`, `own_account`, `family`…",
          }),
        ),
      }),
      {
        maxItems: 50,
        description:
          "the payers the exchange knows as the client's declared sources of funds (its employer's payroll, an account of its own at another bank): their deposits are not third-party funding",
      },
    ),
  ),
  mexico: Type.Optional(
    Type.Object({
      rfc: Type.Optional(Str),
      curp: Type.Optional(Str),
      actividadEconomica: Type.Optional(Type.Number()),
      giroMercantil: Type.Optional(Type.Number()),
      identificadorFideicomiso: Type.Optional(Str),
      cuentaRelacionada: Type.Optional(Str),
      clabeInterbancaria: Type.Optional(Str),
      monedaCuentaRelacionada: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
      documentoIdentificacion: Type.Optional(Identification),
    }),
  ),
  colombia: Type.Optional(
    Type.Object({
      tipoIdentificacion: Type.Optional(Str),
      numeroIdentificacion: Type.Optional(Str),
      numeroCliente: Type.Optional(Str),
      numeroWallet: Type.Optional(Str),
      ciudadResidencia: Type.Optional(Str),
      fechaVinculacion: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
    }),
  ),
});
export type Profile = Static<typeof ProfileSchema>;

/** The beneficial owners a profile gives, as a list. */
export function beneficialOwners(profile: Profile): BeneficialOwner[] {
  const bc = profile.beneficiarioControlador;
  return bc === undefined ? [] : Array.isArray(bc) ? bc : [bc];
}
