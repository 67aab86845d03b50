// The integrator's profile of a user: `GET {integration_url}/users/{foreign_user_id}`, signed like every call to the
// integrator, 5 s timeout, validated against the profile schema (unknown extra fields ignored), and, for a project
// with Mexico enabled, against the Mexican person-type rules (exactly one type; each with what the AVI needs).
// Answers are cached for a short time. Every failure is a reason a person can act on, for a `type: error` message.
import { randomUUID } from "node:crypto";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Integration } from "../keys/index.ts";
import { signatureHeaders } from "../notifications/index.ts";
import { type OutboundClient, OutboundError } from "../platform/outbound/index.ts";

const Str = Type.String();
const Identification = Type.Object({ tipoIdentificacion: Type.Number(), numeroIdentificacion: Str });
const Person = Type.Object({
  givenName: Str,
  paternalSurname: Str,
  maternalSurname: Str,
  birthdate: Type.Optional(Str),
  rfc: Type.Optional(Str),
  curp: Type.Optional(Str),
  documentoIdentificacion: Type.Optional(Identification),
});

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

/** Why a profile cannot serve a Mexican report, or undefined. */
export function mexicanGap(profile: Profile): string | undefined {
  const mx = profile.mexico;
  if (!mx) return "the profile has no `mexico` object, which Mexican compliance needs";
  if (profile.tipoPersona === "moral") {
    if (!mx.rfc && !profile.fechaConstitucion)
      return "a persona moral needs `mexico.rfc` or `fechaConstitucion`";
    if (!profile.representanteApoderado) return "a persona moral needs `representanteApoderado`";
    return undefined;
  }
  if (profile.tipoPersona === "fideicomiso") {
    if (!mx.rfc && !mx.identificadorFideicomiso)
      return "a fideicomiso needs `mexico.rfc` or `mexico.identificadorFideicomiso`";
    if (!profile.delegadoFiduciario) return "a fideicomiso needs `delegadoFiduciario`";
    return undefined;
  }
  if (!mx.rfc && !mx.curp && !profile.birthdate)
    return "a persona física needs `mexico.rfc`, `mexico.curp` or `birthdate`";
  return undefined;
}

export type ProfileResult = { ok: true; profile: Profile } | { ok: false; reason: string };

export const PROFILE_TIMEOUT_MS = 5_000;

/** Fetches and checks profiles, caching each answer (good or bad) for `ttlMs`. */
export class ProfileReader {
  readonly #cache = new Map<string, { at: number; result: Promise<ProfileResult> }>();

  constructor(
    private readonly outbound: OutboundClient,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets every cached answer (a profile known to have changed). */
  clear(): void {
    this.#cache.clear();
  }

  read(
    projectId: number,
    integration: Integration,
    jurisdictions: readonly string[],
    foreignUserId: string,
  ): Promise<ProfileResult> {
    const key = `${projectId}\n${integration.integrationUrl}\n${jurisdictions.join(",")}\n${foreignUserId}`;
    const hit = this.#cache.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.result;
    const result = this.#fetch(integration, jurisdictions, foreignUserId);
    this.#cache.delete(key);
    this.#cache.set(key, { at: this.now(), result });
    // The oldest answers go first once the cache holds many users.
    if (this.#cache.size > 1_000) this.#cache.delete(this.#cache.keys().next().value as string);
    return result;
  }

  async #fetch(
    integration: Integration,
    jurisdictions: readonly string[],
    foreignUserId: string,
  ): Promise<ProfileResult> {
    if (!integration.integrationUrl) return { ok: false, reason: "the project has no integration_url" };
    const url = `${integration.integrationUrl.replace(/\/+$/, "")}/users/${encodeURIComponent(foreignUserId)}`;
    const headers = signatureHeaders(integration.scheme, integration.secrets, {
      id: `msg_${randomUUID()}`,
      method: "GET",
      path: new URL(url).pathname,
      body: undefined,
      at: this.now(),
    });
    let json: unknown;
    try {
      const res = await this.outbound.request({ method: "GET", url, headers, timeoutMs: PROFILE_TIMEOUT_MS });
      if (res.status < 200 || res.status > 299)
        return { ok: false, reason: `the user profile request answered ${res.status}` };
      json = JSON.parse(res.body.toString("utf8"));
    } catch (error) {
      return {
        ok: false,
        reason:
          error instanceof OutboundError
            ? `the user profile could not be fetched: ${error.message}`
            : "the user profile is not valid JSON",
      };
    }
    if (!Value.Check(ProfileSchema, json)) {
      const first = Value.Errors(ProfileSchema, json).First();
      return {
        ok: false,
        reason: `the user profile is invalid at ${first?.path || "/"}: ${first?.message ?? "not an object"}`,
      };
    }
    // Extra fields the integrator sends are dropped: a report keeps the profile it used, and only what it used.
    const profile = Value.Clean(ProfileSchema, json) as Profile;
    if (jurisdictions.includes("MX")) {
      const gap = mexicanGap(profile);
      if (gap) return { ok: false, reason: gap };
    }
    return { ok: true, profile };
  }
}
