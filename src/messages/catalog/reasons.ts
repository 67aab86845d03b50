// An alert's reason in the reader's language, written from the alert's stored evidence (src/alerts/reason-text.ts):
// one frame per cause, with the rule's title, the transfer, the person and list entry, or the analysis's figures as
// parameters. The reason an alert stored when it was raised stays as written (English: integrators and webhooks read
// it); these are what a person reads (`reasonText`). Also the history's sentence of a match review.
import { defineMessages } from "../define.ts";

export const reasons = defineMessages({
  en: {
    "reasons.law": "{rule}. Transfer {txHash} of the address {address}{detail}.",
    "reasons.lawOperation": "{rule}. Exchange operation {operationId}{detail}.",
    "reasons.moreOperations": "{count, plural, one {and # more operation} other {and # more operations}}",
    "reasons.counterparty": "with {counterparty}",
    "reasons.client": "user {userId}",
    "reasons.amount": "for {usd}",
    "reasons.more": "{count, plural, one {and # more transfer} other {and # more transfers}}",
    "reasons.person":
      "{subject}, {role, select, client {user {userId}} representative {the representative of user {userId}} fiduciary_delegate {the fiduciary delegate of user {userId}} beneficial_owner {a beneficial owner of user {userId}} other {a person related to user {userId}}}, is {verdict, select, match {a match} pep {a politically exposed person (enhanced due diligence; operating needs a directivo's approval)} other {a candidate to review}} for {matchedName} on the {list} list, version {listVersion}{programs}: entry {entryId}, score {score}, agreeing on {fields}.",
    "reasons.field.name": "the name",
    "reasons.field.alias": "an alias",
    "reasons.field.date": "the date",
    "reasons.field.country": "the nationality",
    "reasons.field.identifier": "an identifier",
    "reasons.field.none": "no field",
    "reasons.attempt":
      "{subject}, user {userId}, {kind, select, onboarding {tried to become a client} other {tried an operation that was not carried out}}{amount} on {at}, and is {verdict, select, match {a match} other {a candidate to review}} for {matchedName} on the {list} list, version {listVersion}: entry {entryId}, score {score}.",
    "reasons.analysis":
      "The {kind, select, scan {scan} risk_job {risk job} investigation {investigation} other {analysis}} of {address} (user {userId}) scored {score}, {level}.",
    "reasons.rescreen":
      "Re-screened after {labelAddress} was labelled “{label}” ({category}, source {source}): now {level} ({score}).",
    "reasons.rescreen_plain": "Re-screened after a label learnt later: now {level} ({score}).",
    "reasons.fan_in":
      "User {userId} received {deposits} fiat deposits from {payers} different payers between {first} and {last} ({usd} in all{unvalued, plural, =0 {} one {, # not valued: no rate of its day} other {, # not valued: no rate of their day}}), then withdrew {withdrawal} to {destination} on {withdrawnAt}: the project's rule is {minPayers} payers or more within {windowHours} h before a crypto withdrawal.",
    "reasons.pass_through":
      "User {userId}: {direction, select, fiat_deposit {fiat in} other {crypto in}} {inUsd} and {direction, select, fiat_deposit {crypto out} other {fiat out}} {outUsd} within {hours} h, {ratio} of one another: the project's rule is {minRatio} or more within {windowHours} h.",
    "reasons.fiat_structuring":
      "User {userId} made {deposits} fiat deposits within {windowDays} days, each within {band} under the threshold of {threshold} ({thresholdName}).",
    "reasons.third_party_funding":
      "User {userId} was funded by a third party: {amount} on {at} from {payer}{taxId}, whose name, tax id and account are not the client's.",
    "reasons.withdrawal_to_risk":
      "User {userId} withdrew {withdrawal} to {destination}, whose verdict is {level} ({score}); {funding, plural, =0 {no fiat or purchase came in} one {funded by # operation} other {funded by # operations}} in the {fundingHours} h before ({fundingUsd}{unvalued, plural, =0 {} one {, # not valued: no rate of its day} other {, # not valued: no rate of their day}}).",
    "reasons.patterns":
      "{count, plural, =0 {No patterns detected.} one {Pattern detected: {patterns}.} other {Patterns detected: {patterns}.}}",
    "reasons.exposure": "Largest exposure: {text}.",
    "reasons.other": "{cause} (level {level}).",
    "reasons.history.match_confirmed": "confirmed the match with entry {entryId} of the list {list}",
    "reasons.history.match_discarded": "discarded the match with entry {entryId} of the list {list}",
    "reasons.history.reason": "reason: “{reason}”",
  },
  es: {
    "reasons.law": "{rule}. Transferencia {txHash} de la dirección {address}{detail}.",
    "reasons.lawOperation": "{rule}. Operación {operationId} en el exchange{detail}.",
    "reasons.moreOperations": "{count, plural, one {y # operación más} other {y # operaciones más}}",
    "reasons.counterparty": "con {counterparty}",
    "reasons.client": "cliente {userId}",
    "reasons.amount": "por {usd}",
    "reasons.more": "{count, plural, one {y # transferencia más} other {y # transferencias más}}",
    "reasons.person":
      "{subject}, {role, select, client {cliente {userId}} representative {representante del cliente {userId}} fiduciary_delegate {delegado fiduciario del cliente {userId}} beneficial_owner {beneficiario controlador del cliente {userId}} other {persona vinculada al cliente {userId}}}, es {verdict, select, match {una coincidencia} pep {una persona políticamente expuesta (debida diligencia reforzada; operar requiere la aprobación de un directivo)} other {un candidato a revisar}} de {matchedName} en la lista {list}, versión {listVersion}{programs}: entrada {entryId}, puntuación {score}, coincide en {fields}.",
    "reasons.field.name": "el nombre",
    "reasons.field.alias": "un alias",
    "reasons.field.date": "la fecha",
    "reasons.field.country": "la nacionalidad",
    "reasons.field.identifier": "un identificador",
    "reasons.field.none": "ningún dato",
    "reasons.attempt":
      "{subject}, cliente {userId}, {kind, select, onboarding {intentó hacerse cliente} other {intentó una operación que no se realizó}}{amount} el {at}, y es {verdict, select, match {una coincidencia} other {un candidato a revisar}} de {matchedName} en la lista {list}, versión {listVersion}: entrada {entryId}, puntuación {score}.",
    "reasons.analysis":
      "{kind, select, scan {El escaneo} risk_job {El análisis programado} investigation {La investigación} other {El análisis}} de {address} (cliente {userId}) obtuvo {score} puntos, nivel {level}.",
    "reasons.rescreen":
      "Revaluada después de que {labelAddress} fuera etiquetada «{label}» ({category}, fuente {source}): ahora nivel {level} ({score} puntos).",
    "reasons.rescreen_plain":
      "Revaluada por una etiqueta conocida después: ahora nivel {level} ({score} puntos).",
    "reasons.fan_in":
      "El usuario {userId} recibió {deposits} depósitos en moneda fiduciaria de {payers} ordenantes distintos entre el {first} y el {last} ({usd} en total{unvalued, plural, =0 {} one {, # sin valuar por falta de tipo de cambio del día} other {, # sin valuar por falta de tipo de cambio del día}}) y luego retiró {withdrawal} a {destination} el {withdrawnAt}: la regla del proyecto es {minPayers} ordenantes o más en las {windowHours} h previas a un retiro en activos virtuales.",
    "reasons.pass_through":
      "Usuario {userId}: entraron {inUsd} en {direction, select, fiat_deposit {moneda fiduciaria} other {activos virtuales}} y salieron {outUsd} en {direction, select, fiat_deposit {activos virtuales} other {moneda fiduciaria}} en {hours} h, {ratio} entre sí: la regla del proyecto es {minRatio} o más en {windowHours} h.",
    "reasons.fiat_structuring":
      "El usuario {userId} hizo {deposits} depósitos en moneda fiduciaria en {windowDays} días, cada uno hasta {band} por debajo del umbral de {threshold} ({thresholdName}).",
    "reasons.third_party_funding":
      "Un tercero fondeó al usuario {userId}: {amount} el {at} de {payer}{taxId}, cuyo nombre, identificación fiscal y cuenta no son los del cliente.",
    "reasons.withdrawal_to_risk":
      "El usuario {userId} retiró {withdrawal} a {destination}, cuyo veredicto es {level} ({score}); {funding, plural, =0 {no entró moneda fiduciaria ni compra alguna} one {lo fondeó # operación} other {lo fondearon # operaciones}} en las {fundingHours} h previas ({fundingUsd}{unvalued, plural, =0 {} one {, # sin valuar por falta de tipo de cambio del día} other {, # sin valuar por falta de tipo de cambio del día}}).",
    "reasons.patterns":
      "{count, plural, =0 {Sin patrones detectados.} one {Patrón detectado: {patterns}.} other {Patrones detectados: {patterns}.}}",
    "reasons.exposure": "Mayor exposición: {text}.",
    "reasons.other": "{cause} (nivel {level}).",
    "reasons.history.match_confirmed": "confirmó la coincidencia con la entrada {entryId} de la lista {list}",
    "reasons.history.match_discarded": "descartó la coincidencia con la entrada {entryId} de la lista {list}",
    "reasons.history.reason": "motivo: «{reason}»",
  },
});
