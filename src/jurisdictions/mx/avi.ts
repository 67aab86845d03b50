// The AVI XML of one user's file (or the month's informe en ceros), as the official schema wants it
// (docs/reports/mx.md): one `archivo` with one `informe` for the month and the reporting entity, and one `aviso`
// per reportable operation, each naming the client (persona_aviso, from the user's profile) and the transfers it
// reports. Deterministic: the same facts give the same bytes, so that a regenerated month is recognised as
// unchanged and golden files stay stable.
import crypto from "node:crypto";
import { create } from "xmlbuilder2";
import { actOf, type ClientOperation, localIn, type OperationAct } from "../../regulation/index.ts";
import type { FileEntry } from "../port.ts";
import type { Profile } from "../profile.ts";
import { aviUserId } from "../user-ids.ts";
import { funds, swap, trade } from "./avi-exchange.ts";
import { AVI_NAMESPACE } from "./avi-schema.ts";
import { ALERT_CODES, CURRENCY_CODES, OTHER_VIRTUAL_ASSET, VIRTUAL_ASSET_CODES } from "./catalogs.ts";
import { alphanumeric, amount, freeText, operationHash, operationTime, quantity } from "./format.ts";

/** `YYYYMM`, as the AVI's mes_reportado writes a period. */
const compactPeriod = (period: string) => period.replace("-", "");

import { beneficialOwnersOf, personOf, type XmlTree } from "./person.ts";
import type { MxReportingEntity } from "./settings.ts";

export interface AviAviso {
  /** 1: the monthly report; 2: a 24-hour aviso */
  prioridad: 1 | 2;
  alert: { code: number; description?: string };
  /** the operation that made the aviso due: its identity gives the aviso's reference */
  anchor?: ClientOperation;
  /** the aviso's reference when no operation made it due (an aviso from knowledge: known-avisos.ts) */
  reference?: string;
  /** the account the aviso names when it has no anchor (the client's monitored address) */
  account?: string;
  /** the operations the aviso reports (the anchor, and for an accumulation the ones that added up) */
  operations: ClientOperation[];
}

export interface AviFile {
  period: string;
  entity: MxReportingEntity;
  userId: string;
  profile: Profile;
  avisos: AviAviso[];
  /** avisos already filed that this file corrects: their reference and the filing's folio (modificatorio) */
  corrections?: ReadonlyMap<string, string>;
}

export type AviResult =
  | { ok: true; xml: string; entries: FileEntry[] }
  | { ok: false; reason: string; field?: string };

/**
 * The aviso's referencia_aviso: 14 upper-case hex characters derived from the operation (its monitored address is
 * one project's, so the reference is unique across projects too), stable across runs.
 */
export function avisoReference(
  prioridad: number,
  op: Pick<ClientOperation, "chainId" | "txHash" | "logIndex" | "addressId">,
): string {
  return crypto
    .createHash("sha256")
    .update(`${prioridad}|${op.chainId}|${op.txHash}|${op.logIndex}|${op.addressId}`)
    .digest("hex")
    .slice(0, 14)
    .toUpperCase();
}

function sujetoObligado(entity: MxReportingEntity): XmlTree {
  return {
    ...(entity.clave_entidad_colegiada ? { clave_entidad_colegiada: entity.clave_entidad_colegiada } : {}),
    clave_sujeto_obligado: entity.clave_sujeto_obligado,
    clave_actividad: "AVI",
    ...(entity.exento ? { exento: "1" } : {}),
    dominio_plataforma: entity.dominio_plataforma,
  };
}

function document(informe: XmlTree): string {
  return create(
    { version: "1.0", encoding: "UTF-8" },
    {
      archivo: {
        "@xmlns": AVI_NAMESPACE,
        "@xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        "@xsi:schemaLocation": `${AVI_NAMESPACE} avi.xsd`,
        informe,
      },
    },
  ).end({ prettyPrint: true });
}

/** The informe en ceros: the month and the reporting entity, no aviso (RCG Art. 25). */
export function zeroInforme(period: string, entity: MxReportingEntity): string {
  return `${document({ mes_reportado: compactPeriod(period), sujeto_obligado: sujetoObligado(entity) })}\n`;
}

function activoVirtual(op: ClientOperation): XmlTree {
  const symbol = (op.symbol ?? "").toUpperCase();
  const code = VIRTUAL_ASSET_CODES[symbol];
  const description = freeText(symbol || `TOKEN ${op.token}`).slice(0, 100);
  const valuation = op.valuations.MX;
  const rate = (valuation?.priceUsd as number) * (valuation?.perUsd as number);
  return {
    activo_virtual_operado: code ?? OTHER_VIRTUAL_ASSET,
    ...(code === undefined ? { descripcion_activo_virtual: description } : {}),
    tipo_cambio_mn: amount(rate),
    cantidad_activo_virtual: quantity(op.value, op.decimals as number),
  };
}

function operation(op: ClientOperation): XmlTree {
  return {
    fecha_hora_operacion: operationTime(op.blockTime),
    monto_operacion_mn: amount(localIn(op, "MX") as number),
    activo_virtual: activoVirtual(op),
    hash_operacion: operationHash(op.exchange ? (op.exchange.txHash ?? op.exchange.operationId) : op.txHash),
  };
}

/** Why an operation cannot be written (no price, rate or decimals; a fiat movement without its payer), or undefined. */
function operationGap(op: ClientOperation): string | undefined {
  const valuation = op.valuations.MX;
  const e = op.exchange;
  if (e) {
    const act = actOf(op);
    if ((act === "fondos_depositados" || act === "fondos_retirados") && !e.counterparty?.name)
      return `operation ${e.operationId} has no counterparty name: the aviso names the ${act === "fondos_depositados" ? "payer" : "payee"} (send counterparty.name)`;
    if (valuation?.priceUsd == null || valuation.perUsd === null)
      return `operation ${e.operationId} has no MXN value on its day (no rate or price of ${op.symbol}): the aviso needs its MXN amount`;
    return undefined;
  }
  if (op.decimals === null) return `the token of transaction ${op.txHash} has no known decimals`;
  if (valuation?.priceUsd == null)
    return `transaction ${op.txHash} has no USD price on its day: the aviso needs its MXN amount`;
  if (valuation.perUsd === null)
    return `transaction ${op.txHash} has no MXN exchange rate: the aviso needs its MXN amount`;
  return undefined;
}

function detalle(operations: ClientOperation[]): XmlTree {
  const of = (act: OperationAct) => operations.filter((o) => actOf(o) === act);
  const sent = of("envio").map(operation);
  const received = of("recepcion").map(operation);
  const bought = of("compra").map(trade);
  const sold = of("venta").map(trade);
  const swapped = of("intercambio").map(swap);
  const deposited = of("fondos_depositados").map(funds);
  const withdrawn = of("fondos_retirados").map(funds);
  // In the XSD's order; an aviso from knowledge alone (a listed client) reports no operation: the detail stays empty.
  return {
    ...(bought.length > 0 ? { operaciones_compra: { compra: bought } } : {}),
    ...(sold.length > 0 ? { operaciones_venta: { venta: sold } } : {}),
    ...(swapped.length > 0 ? { operaciones_intercambio: { intercambio: swapped } } : {}),
    ...(sent.length + received.length > 0
      ? {
          operaciones_transferencia: {
            ...(sent.length > 0 ? { transferencias_enviadas: { envio: sent } } : {}),
            ...(received.length > 0 ? { transferencias_recibidas: { recepcion: received } } : {}),
          },
        }
      : {}),
    ...(withdrawn.length + deposited.length > 0
      ? {
          operaciones_fondos: {
            ...(withdrawn.length > 0 ? { fondos_retirados: { retiro: withdrawn } } : {}),
            ...(deposited.length > 0 ? { fondos_depositados: { deposito: deposited } } : {}),
          },
        }
      : {}),
  };
}

/** One user's AVI file, or why it cannot be written. */
export function aviFile(input: AviFile): AviResult {
  const person = personOf(input.profile);
  if (!person.ok) return person;
  const owners = beneficialOwnersOf(input.profile);
  if (!Array.isArray(owners)) return owners;
  for (const aviso of input.avisos) {
    for (const op of aviso.operations) {
      const gap = operationGap(op);
      if (gap) return { ok: false, reason: gap };
    }
  }
  const mx = input.profile.mexico ?? {};
  const first = input.avisos[0];
  // The client's account: its own as the profile gives it, else the monitored address the aviso is about (an
  // exchange operation has none), else the client's id.
  const account = alphanumeric(
    [mx.cuentaRelacionada, first?.anchor?.address, first?.account, input.userId].find((a) => a) ??
      input.userId,
  ).slice(0, 100);
  const clabe =
    mx.clabeInterbancaria && /^\d{18}$/.test(mx.clabeInterbancaria) ? mx.clabeInterbancaria : undefined;
  const personaAviso: XmlTree = {
    datos_cuenta_plataforma: {
      id_usuario: aviUserId(input.userId),
      cuenta_relacionada: account,
      ...(clabe ? { clabe_interbancaria: clabe } : {}),
      moneda_cuenta: mx.monedaCuentaRelacionada ?? CURRENCY_CODES.MXN,
    },
    tipo_persona: person.tipoPersona,
    ...person.extra,
  };
  const entries: FileEntry[] = [];
  const avisos = input.avisos.map((aviso) => {
    const reference = aviso.anchor
      ? avisoReference(aviso.prioridad, aviso.anchor)
      : (aviso.reference as string);
    const body: XmlTree = {
      alerta: {
        tipo_alerta: aviso.alert.code,
        ...(aviso.alert.description
          ? { descripcion_alerta: freeText(aviso.alert.description).slice(0, 3000) }
          : {}),
      },
      operaciones_persona: {
        persona_aviso: personaAviso,
        ...(owners.length > 0 ? { dueno_beneficiario: owners } : {}),
        detalle_operaciones: detalle(aviso.operations),
      },
    };
    entries.push({
      reference,
      digest: crypto.createHash("sha256").update(JSON.stringify(body)).digest("hex"),
    });
    const folio = input.corrections?.get(reference);
    return {
      referencia_aviso: reference,
      prioridad: aviso.prioridad,
      ...(folio
        ? {
            modificatorio: {
              folio_modificacion: folio,
              descripcion_modificacion: `CORRECCION DEL AVISO ${reference} PRESENTADO CON EL FOLIO ${folio}`,
            },
          }
        : {}),
      ...body,
    };
  });
  const xml = document({
    mes_reportado: compactPeriod(input.period),
    sujeto_obligado: sujetoObligado(input.entity),
    aviso: avisos,
  });
  return { ok: true, xml: `${xml}\n`, entries };
}

export { ALERT_CODES };
