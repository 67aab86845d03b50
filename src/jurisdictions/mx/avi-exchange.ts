// The AVI blocks of the exchange's own operations (src/exchange-operations), as the official XSD names them: a buy
// in `operaciones_compra`, a sale in `operaciones_venta`, a swap in `operaciones_intercambio`, fiat deposited and
// withdrawn in `operaciones_fondos` (with the payer or payee and its account). Conventions (docs/reports/mx.md):
// the amount in the operation's own currency where the SAT's currency catalog has it (pesos, dollars), otherwise
// in pesos at the day's rate; `hash_operacion` the chain's transaction hash when the operation has one, otherwise
// the platform's own operation id; a swap's received side valued at what was given; the payer's or payee's full
// name split as Mexican names are (the last two words its surnames), a company by its denominación.
import { type ClientOperation, localIn } from "../../regulation/index.ts";
import {
  CURRENCY_CODES,
  institutionKey,
  MONETARY_INSTRUMENTS,
  OTHER_VIRTUAL_ASSET,
  VIRTUAL_ASSET_CODES,
} from "./catalogs.ts";
import { alphanumeric, amount, entityText, freeText, nameText, operationTime } from "./format.ts";
import { MISSING_SURNAME, type XmlTree } from "./person.ts";

/** A decimal string as the XSD's cantidad_activo_virtual: two to ten decimals (truncated past the tenth). */
export function decimalQuantity(value: string): string {
  const [whole, fraction = ""] = value.split(".");
  return `${whole}.${fraction.slice(0, 10).replace(/0+$/, "").padEnd(2, "0")}`;
}

const mxnOf = (op: ClientOperation): number => localIn(op, "MX") as number;

/** The currency and amount the block writes: the operation's own when the catalog has it, else pesos. */
function money(op: ClientOperation): { moneda_operacion: number; monto_operacion: string } {
  const fiat = op.exchange?.fiat;
  const code = fiat ? CURRENCY_CODES[fiat.currency as keyof typeof CURRENCY_CODES] : undefined;
  if (fiat && code !== undefined)
    return { moneda_operacion: code, monto_operacion: amount(Number(fiat.amount)) };
  return { moneda_operacion: CURRENCY_CODES.MXN, monto_operacion: amount(mxnOf(op)) };
}

function asset(symbol: string, quantity: string, mxnPerUnit: number): XmlTree {
  const upper = symbol.toUpperCase();
  const code = VIRTUAL_ASSET_CODES[upper];
  return {
    activo_virtual_operado: code ?? OTHER_VIRTUAL_ASSET,
    ...(code === undefined ? { descripcion_activo_virtual: freeText(upper).slice(0, 100) } : {}),
    tipo_cambio_mn: amount(mxnPerUnit),
    cantidad_activo_virtual: decimalQuantity(quantity),
  };
}

const hashOf = (op: ClientOperation) =>
  alphanumeric(op.exchange?.txHash ?? op.exchange?.operationId ?? op.txHash).slice(0, 2000) || "0";

/** A buy or a sale: what was paid or received, and the asset at the MXN price it was traded at. */
export function trade(op: ClientOperation): XmlTree {
  const e = op.exchange;
  const quantity = Number(e?.asset?.amount ?? "0");
  return {
    fecha_hora_operacion: operationTime(op.blockTime),
    ...money(op),
    activo_virtual: asset(
      e?.asset?.symbol ?? "",
      e?.asset?.amount ?? "0",
      quantity > 0 ? mxnOf(op) / quantity : 0,
    ),
    hash_operacion: hashOf(op),
  };
}

/** A swap: the asset given at its day's MXN price, and the asset received valued at what was given. */
export function swap(op: ClientOperation): XmlTree {
  const e = op.exchange;
  const mxn = mxnOf(op);
  const given = Number(e?.asset?.amount ?? "0");
  const received = Number(e?.received?.amount ?? "0");
  return {
    fecha_hora_operacion: operationTime(op.blockTime),
    activo_virtual_enviado: {
      activo_virtual: asset(e?.asset?.symbol ?? "", e?.asset?.amount ?? "0", given > 0 ? mxn / given : 0),
      monto_operacion_mn: amount(mxn),
    },
    activo_virtual_recibido: {
      activo_virtual: asset(
        e?.received?.symbol ?? "",
        e?.received?.amount ?? "0",
        received > 0 ? mxn / received : 0,
      ),
      monto_operacion_mn: amount(mxn),
    },
    hash_operacion: hashOf(op),
  };
}

const COMPANY =
  /\b(S\.?\s?A\.?|S\.?\s?C\.?|S\.?\s?DE\s?R\.?\s?L\.?|SAPI|SOFOM|LTDA|INC|LLC|CORP|A\.?\s?C\.?)\b/i;

/** The payer or payee as the XSD's persona_cuenta: a company by its name, a person split into name and surnames. */
function party(op: ClientOperation): XmlTree {
  const c = op.exchange?.counterparty;
  const name = c?.name ?? "";
  const moral = (c?.taxId && /^[A-ZÑ&]{3}\d{6}[A-Z0-9]{3}$/.test(c.taxId)) || COMPANY.test(name);
  const tipo_persona = moral
    ? { persona_moral: { denominacion_razon: entityText(name).slice(0, 254) || "SIN NOMBRE" } }
    : (() => {
        const words = nameText(name).split(" ").filter(Boolean);
        const surnames = words.length >= 3 ? words.slice(-2) : words.slice(1);
        const given = words.length >= 3 ? words.slice(0, -2) : words.slice(0, 1);
        return {
          persona_fisica: {
            nombre: given.join(" ") || "SIN NOMBRE",
            apellido_paterno: surnames[0] ?? MISSING_SURNAME,
            apellido_materno: surnames[1] ?? MISSING_SURNAME,
          },
        };
      })();
  const account = c?.account ?? "";
  const nacionalidad_cuenta: XmlTree =
    op.exchange?.rail === "spei" && /^\d{18}$/.test(account)
      ? { nacional: { clabe_destino: account, clave_institucion_financiera: institutionKey(account) } }
      : {
          extranjero: {
            numero_cuenta: alphanumeric(account || c?.pixKey || c?.taxId || "NA").slice(0, 30) || "NA",
            nombre_banco: entityText(c?.bank ?? op.exchange?.rail ?? "").slice(0, 100) || "NO INFORMADO",
          },
        };
  return { tipo_persona, nacionalidad_cuenta };
}

/** Fiat deposited or withdrawn: the instrument, the amount, and the payer (ordenante) or payee (beneficiario). */
export function funds(op: ClientOperation): XmlTree {
  const rail = (op.exchange?.rail ?? "other") as keyof typeof MONETARY_INSTRUMENTS;
  return {
    fecha_hora_operacion: operationTime(op.blockTime),
    instrumento_monetario: MONETARY_INSTRUMENTS[rail] ?? MONETARY_INSTRUMENTS.other,
    ...money(op),
    [op.act === "fondos_depositados" ? "datos_ordenante" : "datos_beneficiario"]: party(op),
  };
}
