// The `details` of an invalid request (docs/api.md "Envelope and errors") in the reader's language: what is wrong
// with one field, keyed by the JSON Schema keyword that refused it. The English texts are Ajv's and the service's
// own (enum and const also name the values); English answers keep the detail as raised. The HTTP layer picks the
// entry by keyword
// (src/platform/http/validation-details.ts) and leaves a detail of a keyword not listed here in English.
import { defineMessages } from "../define.ts";

export const errorDetails = defineMessages({
  en: {
    "error.detail.required": "must have required property ''{property}''",
    "error.detail.type":
      "must be {type, select, string {string} integer {integer} number {number} boolean {boolean} object {object} array {array} null {null} other {{type}}}",
    "error.detail.minimum": "must be >= {limit}",
    "error.detail.maximum": "must be <= {limit}",
    "error.detail.exclusiveMinimum": "must be > {limit}",
    "error.detail.exclusiveMaximum": "must be < {limit}",
    "error.detail.minLength": "must NOT have fewer than {limit} characters",
    "error.detail.maxLength": "must NOT have more than {limit} characters",
    "error.detail.minItems": "must NOT have fewer than {limit} items",
    "error.detail.maxItems": "must NOT have more than {limit} items",
    "error.detail.pattern": 'must match pattern "{pattern}"',
    "error.detail.format": 'must match format "{format}"',
    "error.detail.enum": "must be equal to one of the allowed values: {values}",
    "error.detail.const": "must be equal to constant {value}",
    "error.detail.anyOf": "must match a schema in anyOf",
    "error.detail.unknown_field_meant": 'unknown field "{name}": did you mean "{meant}"?',
    "error.detail.unknown_field_empty": 'unknown field "{name}": this object has no fields',
    "error.detail.unknown_field_list": 'unknown field "{name}": the fields here are {fields}',
    "error.detail.no_body": "this operation takes no body: send none",
    "error.detail.no_body_field": 'unknown field "{name}": this operation takes no body',
    "error.detail.invalid_json":
      "the body is not valid JSON (or holds a __proto__ or constructor.prototype key): send one JSON object, with double-quoted names and no trailing comma",
    "error.detail.empty_json": "the body is empty: send a JSON object, or no content-type header",
  },
  es: {
    "error.detail.required": "falta el campo obligatorio «{property}»",
    "error.detail.type":
      "debe ser {type, select, string {un texto entre comillas} integer {un número entero} number {un número} boolean {true o false} object {un objeto JSON} array {una lista} null {null} other {de tipo {type}}}",
    "error.detail.minimum": "debe ser como mínimo {limit}",
    "error.detail.maximum": "debe ser como máximo {limit}",
    "error.detail.exclusiveMinimum": "debe ser mayor que {limit}",
    "error.detail.exclusiveMaximum": "debe ser menor que {limit}",
    "error.detail.minLength": "debe tener al menos {limit, plural, one {# carácter} other {# caracteres}}",
    "error.detail.maxLength": "no debe tener más de {limit, plural, one {# carácter} other {# caracteres}}",
    "error.detail.minItems": "debe tener al menos {limit, plural, one {# elemento} other {# elementos}}",
    "error.detail.maxItems": "no debe tener más de {limit, plural, one {# elemento} other {# elementos}}",
    "error.detail.pattern": "no tiene la forma esperada (patrón «{pattern}»)",
    "error.detail.format":
      "debe ser {format, select, date {una fecha AAAA-MM-DD} date_time {una fecha y hora ISO 8601, como 2026-11-29T12:00:00Z} email {una dirección de correo electrónico} uri {una URL completa, con https://} uuid {un UUID} other {del formato «{format}»}}",
    "error.detail.enum": "debe ser uno de los valores admitidos: {values}",
    "error.detail.const": "debe ser {value}",
    "error.detail.anyOf": "no tiene ninguna de las formas admitidas",
    "error.detail.unknown_field_meant": "campo desconocido «{name}»: ¿quiso decir «{meant}»?",
    "error.detail.unknown_field_empty": "campo desconocido «{name}»: este objeto no admite campos",
    "error.detail.unknown_field_list": "campo desconocido «{name}»: los campos admitidos aquí son {fields}",
    "error.detail.no_body": "esta operación no lleva cuerpo: no envíe ninguno",
    "error.detail.no_body_field": "campo desconocido «{name}»: esta operación no lleva cuerpo",
    "error.detail.invalid_json":
      "el cuerpo no es JSON válido (o contiene una clave __proto__ o constructor.prototype): envíe un objeto JSON, con los nombres entre comillas dobles y sin coma final",
    "error.detail.empty_json": "el cuerpo está vacío: envíe un objeto JSON, o ningún encabezado content-type",
  },
});
