// The service's own error messages (the `message` of the error envelope, docs/api.md "Envelope and errors") in the
// reader's language. The English texts are the ones the API has always answered, word for word: an integrator
// that sends no Accept-Language reads what it read before. The generic texts per code are in common.ts.
import { defineMessages } from "../define.ts";

export const errors = defineMessages({
  en: {
    "error.invalid_body": "Invalid body",
    "error.invalid_query": "Invalid query",
    "error.invalid_path": "Invalid path",
    "error.invalid_headers": "Invalid headers",
    "error.invalid_key": "The api key is invalid",
    "error.forbidden_generic": "Forbidden",
    "error.forbidden_project":
      "Forbidden: {who, select, user {your account} other {this key}} belongs to project {own} and reaches only its resources, not those of project {asked}",
    "error.forbidden_role":
      "Forbidden: this action needs a key of role {needed}{needed, select, admin {} other { or above}}; this key's role is {role}",
    "error.route_not_found": "Route {method} {path} not found",
    "error.chain_not_found": "Chain {chain} not found: the chains here are {chains}",
    "error.payload_too_large": "Request body is larger than 1 MiB",
    "error.unsupported_media_type": "Content-Type must be application/json",
    "error.auth_limited": "Too many failed authentications from this address: limit of {max} per minute",
    "error.cluster_chain_kind":
      "Chain {chain} ({name}) is not a Bitcoin chain: clusters by common inputs are kept for Bitcoin chains only (an account chain's address is its owner's already)",
    "error.cluster_address_unknown":
      "No transaction the service holds on chain {chain} names {address}: import the chain's transactions (vigia import btc-etl) to cluster its addresses",
  },
  es: {
    "error.invalid_body": "El cuerpo de la solicitud no es válido",
    "error.invalid_query": "Los parámetros de la consulta no son válidos",
    "error.invalid_path": "La ruta no es válida",
    "error.invalid_headers": "Los encabezados no son válidos",
    "error.invalid_key":
      "La clave de API no es válida: envíela en el encabezado x-api-key, tras la palabra ApiKey y un espacio, o inicie sesión de nuevo",
    "error.forbidden_generic": "Prohibido",
    "error.forbidden_project":
      "Prohibido: {who, select, user {su cuenta} other {esta clave}} pertenece al proyecto {own} y solo alcanza sus recursos, no los del proyecto {asked}",
    "error.forbidden_role":
      "Prohibido: esta acción requiere el rol {needed, select, viewer {lector} developer {desarrollador} officer {oficial de cumplimiento} admin {administrador} other {{needed}}}{needed, select, admin {} other { o superior}}; su rol es {role, select, viewer {lector} developer {desarrollador} officer {oficial de cumplimiento} admin {administrador} other {{role}}}. Pida a un administrador del proyecto que le asigne el rol necesario",
    "error.route_not_found": "No existe la ruta {method} {path}",
    "error.chain_not_found": "No existe la cadena {chain}: las cadenas de este servicio son {chains}",
    "error.payload_too_large": "El cuerpo de la solicitud pasa de 1 MiB",
    "error.unsupported_media_type": "El Content-Type debe ser application/json",
    "error.auth_limited":
      "Demasiadas autenticaciones fallidas desde esta dirección: el límite es de {max} por minuto; espere un minuto",
    "error.cluster_chain_kind":
      "La cadena {chain} ({name}) no es una cadena de Bitcoin: los clústeres por entradas comunes solo se llevan en cadenas de Bitcoin (en una cadena de cuentas, la dirección ya es de su dueño)",
    "error.cluster_address_unknown":
      "Ninguna transacción que el servicio tiene de la cadena {chain} nombra {address}: importe las transacciones de la cadena (vigia import btc-etl) para agrupar sus direcciones",
  },
});
