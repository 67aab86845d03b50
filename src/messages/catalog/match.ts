// Reviewing a person match: who in the client's profile was screened, and why the matcher found them to be a list's
// entry, as sentences (the score's reasons: the name or an alias, the date, the nationality, an identifier), and the
// officer's earlier decision on the same pair.
import { defineMessages } from "../define.ts";

export const match = defineMessages({
  en: {
    "match.role.client": "the client",
    "match.role.representative": "the client's representative",
    "match.role.fiduciary_delegate": "the trust's fiduciary delegate",
    "match.role.beneficial_owner": "a beneficial owner of the client",
    "match.decision.confirm": "Confirmed: the client is the listed person",
    "match.decision.discard": "Discarded: a namesake, not the listed person",
    "match.why.score":
      "Score {score, number, ::.000} of 1 on the list {list}, version {listVersion}: {verdict, select, match {a match: do not operate with this person} pep {a politically exposed person: enhanced due diligence} other {a candidate to review}}.",
    "match.why.name": "The name “{client}” agrees with the entry's name “{listed}”.",
    "match.why.alias": "The name “{client}” agrees with “{listed}”, one of the entry's aliases.",
    "match.why.date_agrees":
      "The {type, select, entity {date of incorporation} other {date of birth}} {client} agrees with the list's {listed}.",
    "match.why.date_near":
      "The {type, select, entity {date of incorporation} other {date of birth}} {client} is close to the list's {listed}, without agreeing.",
    "match.why.date_differs":
      "The {type, select, entity {date of incorporation} other {date of birth}} {client} differs from the list's {listed}: it lowered the score.",
    "match.why.date_unknown":
      "No {type, select, entity {date of incorporation} other {date of birth}} to compare: {side, select, client {the profile gives none} other {the entry gives none}}.",
    "match.why.country_agrees": "The nationality {client} is one of the entry's ({listed}).",
    "match.why.country_differs":
      "The nationality {client} is not the entry's ({listed}): it lowered the score.",
    "match.why.identifier_agrees": "The identifier {kind} {value} is the entry's: it confirms the match.",
    "match.why.identifier_stem":
      "The RFC {value} is the entry's but for the last three characters (the homoclave).",
    "match.why.identifier_none": "No identifier of the profile is on the entry, nor rules it out.",
    "match.why.common_names":
      "The name is made of common given names and surnames only, and nothing else confirms it: it is capped below a match.",
    "match.why.type_differs":
      "The profile's {client, select, entity {company} other {person}} was compared with an entry that lists {listed, select, entity {a company} other {a person}}: it lowered the score.",
    "match.why.disguised":
      "The name as given hides characters a reader does not see; it was compared as “{compared}”.",
    "match.why.earlier":
      "{decision, select, discard {Discarded} other {Confirmed}} before, on alert {alertId}, by {by} ({at}): “{reason}”. Since then {changed, select, entry {the list entry} profile {the client's profile} other {the list entry and the client's profile}} changed.",
  },
  es: {
    "match.role.client": "el cliente",
    "match.role.representative": "el representante del cliente",
    "match.role.fiduciary_delegate": "el delegado fiduciario del fideicomiso",
    "match.role.beneficial_owner": "un beneficiario controlador del cliente",
    "match.decision.confirm": "Confirmada: el cliente es la persona listada",
    "match.decision.discard": "Descartada: un homónimo, no la persona listada",
    "match.why.score":
      "Puntaje {score, number, ::.000} de 1 en la lista {list}, versión {listVersion}: {verdict, select, match {una coincidencia: no opere con esta persona} pep {una persona políticamente expuesta: debida diligencia reforzada} other {un candidato a revisar}}.",
    "match.why.name": "El nombre «{client}» coincide con el nombre de la entrada «{listed}».",
    "match.why.alias": "El nombre «{client}» coincide con «{listed}», uno de los alias de la entrada.",
    "match.why.date_agrees":
      "La {type, select, entity {fecha de constitución} other {fecha de nacimiento}} {client} coincide con la de la lista ({listed}).",
    "match.why.date_near":
      "La {type, select, entity {fecha de constitución} other {fecha de nacimiento}} {client} es cercana a la de la lista ({listed}), sin coincidir.",
    "match.why.date_differs":
      "La {type, select, entity {fecha de constitución} other {fecha de nacimiento}} {client} difiere de la de la lista ({listed}): bajó el puntaje.",
    "match.why.date_unknown":
      "No hay {type, select, entity {fecha de constitución} other {fecha de nacimiento}} que comparar: {side, select, client {el perfil no la da} other {la entrada no la da}}.",
    "match.why.country_agrees": "La nacionalidad {client} es una de las de la entrada ({listed}).",
    "match.why.country_differs":
      "La nacionalidad {client} no es la de la entrada ({listed}): bajó el puntaje.",
    "match.why.identifier_agrees":
      "El identificador {kind} {value} es el de la entrada: confirma la coincidencia.",
    "match.why.identifier_stem":
      "El RFC {value} es el de la entrada salvo sus tres últimos caracteres (la homoclave).",
    "match.why.identifier_none": "Ningún identificador del perfil está en la entrada, ni la descarta.",
    "match.why.common_names":
      "El nombre está hecho solo de nombres y apellidos comunes, y nada más lo confirma: queda por debajo de una coincidencia.",
    "match.why.type_differs":
      "Se comparó {client, select, entity {la empresa} other {la persona}} del perfil con una entrada que lista {listed, select, entity {una empresa} other {una persona}}: bajó el puntaje.",
    "match.why.disguised":
      "El nombre como se dio oculta caracteres que el lector no ve; se comparó como «{compared}».",
    "match.why.earlier":
      "{decision, select, discard {Descartada} other {Confirmada}} antes, en la alerta {alertId}, por {by} ({at}): «{reason}». Desde entonces cambió {changed, select, entry {la entrada de la lista} profile {el perfil del cliente} other {la entrada de la lista y el perfil del cliente}}.",
  },
});
