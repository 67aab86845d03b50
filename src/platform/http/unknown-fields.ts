// Request bodies refuse the fields they do not know, and the 400 names each one (with the field that was probably
// meant: `maxdepth` -> `maxDepth`). A typo in an optional field was silently ignored before, so a scan asked at
// depth 7 ran at the default 3 and nothing said why.
//
// The refusal is the schema's: every object of a body schema that lists its properties and says nothing of others
// gets `additionalProperties: false` when its route is registered (closedBody), so it shows in the OpenAPI
// document, and a route added later cannot forget it. Ajv stops at the first error, so its answer names one field;
// on a refused body, namingUnknownFields walks the body beside its schema to name every unknown field at once, and
// lets Ajv find the next real error once they are set aside.
import type { ErrorObject } from "ajv";
import type { ErrorDetail, ErrorText } from "../errors.ts";

type Schema = Record<string | symbol, unknown>;
type Validate = ((data: unknown, ...rest: never[]) => unknown) & {
  errors?: ErrorObject[] | null;
  schemaEnv?: unknown;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The keywords whose value is one schema. */
const ONE = ["items", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames"] as const;
/** The keywords whose value is an array of schemas; allOf is left alone (closing a branch would refuse the fields
 * of the others). */
const LIST = ["anyOf", "oneOf", "prefixItems"] as const;
/** The keywords whose value maps names to schemas. */
const MAP = ["properties", "patternProperties", "$defs", "definitions"] as const;

const acceptsObjects = (s: Schema) =>
  s.type === undefined
    ? isObject(s.properties)
    : s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));

/**
 * A copy of a body schema in which every object schema that lists its properties and says nothing of other ones
 * (no `additionalProperties`, no `patternProperties`) refuses them. Values that are data (`default`, `enum`,
 * `examples`, ...) are not touched; symbol keys (TypeBox's) are kept.
 */
export function closedBody<T>(schema: T): T {
  return close(schema) as T;
}

function close(node: unknown): unknown {
  if (!isObject(node)) return node;
  const copy: Schema = { ...node };
  for (const key of ONE) if (isObject(copy[key])) copy[key] = close(copy[key]);
  if (Array.isArray(copy.items)) copy.items = copy.items.map(close);
  for (const key of LIST) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(close);
  for (const key of MAP) {
    const map = copy[key];
    if (isObject(map)) copy[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, close(v)]));
  }
  if (isObject(copy.additionalProperties)) copy.additionalProperties = close(copy.additionalProperties);
  if (
    isObject(copy.properties) &&
    acceptsObjects(copy) &&
    copy.additionalProperties === undefined &&
    copy.patternProperties === undefined
  )
    copy.additionalProperties = false;
  return copy;
}

// ---------------------------------------------------------------------------------------------------------------
// Naming them

/** How many unknown fields one answer names (the details of an answer are cut at 20 anyway). */
const MAX_NAMED = 20;
/** Longer names are cut in the answer: a body may hold a key of a megabyte. */
const MAX_NAME_SHOWN = 80;

const shown = (name: string) => (name.length > MAX_NAME_SHOWN ? `${name.slice(0, MAX_NAME_SHOWN)}…` : name);
const pointerPart = (name: string) => shown(name).replace(/~/g, "~0").replace(/\//g, "~1");

/** The field most probably meant by an unknown name, when one stands out. */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");
  // Another spelling of the same words: case, snake_case, kebab-case (maxdepth, max_depth, chain_id, foreignUserId).
  const same = candidates.filter((c) => plain(c) === plain(name));
  if (same.length === 1) return same[0];
  // A typing slip: a letter missing, extra, wrong or swapped (adresses, skipExsting, chianId).
  if (name.length >= 3) {
    const allowed = name.length >= 6 ? 2 : 1;
    const scored = candidates
      .map((c) => ({ c, d: distance(plain(name), plain(c)) }))
      .filter((x) => x.d <= allowed)
      .sort((a, b) => a.d - b.d);
    if (scored.length === 1 || (scored.length > 1 && scored[0]!.d < scored[1]!.d)) return scored[0]!.c;
  }
  // The start of a longer name (chain -> chainId, from -> fromDate).
  if (name.length >= 4) {
    const prefixed = candidates.filter((c) => plain(c).startsWith(plain(name)));
    if (prefixed.length === 1) return prefixed[0];
  }
  return undefined;
}

/** Optimal string alignment distance (Levenshtein with adjacent swaps), on short names only. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64 || b.length > 64) return 99;
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** What the answer says of one unknown field: its name, and the field probably meant or the fields there are. */
export function unknownFieldMessage(name: string, known: readonly string[]): string {
  const meant = nearestName(name, known);
  if (meant !== undefined) return `unknown field "${shown(name)}": did you mean "${meant}"?`;
  if (known.length === 0) return `unknown field "${shown(name)}": this object has no fields`;
  return `unknown field "${shown(name)}": the fields here are ${fieldList(known)}`;
}

const fieldList = (known: readonly string[]) =>
  known.length > 20 ? `${known.slice(0, 20).join(", ")}, …` : known.join(", ");

/** The same words as unknownFieldMessage, as a catalog message (platform/errors.ts ErrorText). */
export function unknownFieldText(name: string, known: readonly string[]): ErrorText {
  const meant = nearestName(name, known);
  if (meant !== undefined)
    return { id: "error.detail.unknown_field_meant", params: { name: shown(name), meant } };
  if (known.length === 0) return { id: "error.detail.unknown_field_empty", params: { name: shown(name) } };
  return { id: "error.detail.unknown_field_list", params: { name: shown(name), fields: fieldList(known) } };
}

interface UnknownField {
  /** JSON pointer of the object holding it. */
  at: string;
  name: string;
  known: string[];
  /** The object, so that the field can be set aside to look for the next error. */
  holder: Record<string, unknown>;
}

/** The branch of a union that can take a value, when exactly one can. */
function onlyBranch(branches: unknown[], value: unknown): Schema | undefined {
  const kind = Array.isArray(value) ? "array" : isObject(value) ? "object" : undefined;
  if (!kind) return undefined;
  const takers = branches.filter(
    (b): b is Schema =>
      isObject(b) &&
      (b.type === kind ||
        (Array.isArray(b.type) && b.type.includes(kind)) ||
        (b.type === undefined && (kind === "object" ? isObject(b.properties) : b.items !== undefined))),
  );
  return takers.length === 1 ? takers[0] : undefined;
}

/**
 * Every field of `data` that its (closed) schema does not know, at any depth, up to MAX_NAMED. It follows the
 * schema, never deeper: properties, items, and the one branch of a union that can take the value (where two
 * branches could, a field unknown to one may belong to the other: Ajv's own error is left to say it).
 */
function unknownFields(schema: unknown, data: unknown): UnknownField[] {
  const found: UnknownField[] = [];
  const walk = (s: unknown, value: unknown, at: string) => {
    if (found.length >= MAX_NAMED || !isObject(s)) return;
    const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
    if (Array.isArray(branches)) {
      const branch = onlyBranch(branches, value);
      if (branch) walk(branch, value, at);
      return;
    }
    if (Array.isArray(value)) {
      if (isObject(s.items)) for (const [i, item] of value.entries()) walk(s.items, item, `${at}/${i}`);
      return;
    }
    if (!isObject(value) || !isObject(s.properties)) return;
    const properties = s.properties;
    const patterns = isObject(s.patternProperties) ? Object.keys(s.patternProperties) : [];
    for (const name of Object.keys(value)) {
      if (found.length >= MAX_NAMED) return;
      if (Object.hasOwn(properties, name)) walk(properties[name], value[name], `${at}/${pointerPart(name)}`);
      else if (s.additionalProperties === false && !patterns.some((p) => new RegExp(p, "u").test(name)))
        found.push({ at, name, known: Object.keys(properties), holder: value });
    }
  };
  walk(schema, data, "");
  return found;
}

/**
 * Wraps a compiled body validator: when it refuses a body, its errors start with one per unknown field (keyword
 * `additionalProperties`, the field's path, a message that names it), followed by the first other error Ajv finds
 * once the unknown fields are set aside. The body of a refused request is not used, so setting them aside in place
 * costs nothing.
 */
export function namingUnknownFields<F extends Validate>(schema: unknown, validate: F): F {
  const wrapped = ((data: unknown, ...rest: never[]) => {
    if (validate(data, ...rest)) {
      wrapped.errors = null;
      return true;
    }
    let errors = validate.errors ?? [];
    const unknown = unknownFields(schema, data);
    if (unknown.length > 0) {
      const named: ErrorObject[] = unknown.map((u) => ({
        instancePath: `${u.at}/${pointerPart(u.name)}`,
        schemaPath: "#/additionalProperties",
        keyword: "additionalProperties",
        params: { additionalProperty: shown(u.name), text: unknownFieldText(u.name, u.known) },
        message: unknownFieldMessage(u.name, u.known),
      }));
      for (const u of unknown) delete u.holder[u.name];
      errors = [...named, ...(validate(data, ...rest) ? [] : (validate.errors ?? []))];
    }
    wrapped.errors = errors.map((e) => (e.keyword === "additionalProperties" ? describe(schema, e) : e));
    return false;
  }) as unknown as F;
  return Object.assign(wrapped, { schemaEnv: validate.schemaEnv });
}

/** An additionalProperties error of Ajv's (in a union the walk could not place), in the same words, at the field's path. */
function describe(schema: unknown, e: ErrorObject): ErrorObject {
  if (e.message?.startsWith("unknown field")) return e;
  const name = String(e.params.additionalProperty ?? "");
  const holder = schemaAt(schema, e.schemaPath.replace(/\/additionalProperties$/, ""));
  const known = isObject(holder) && isObject(holder.properties) ? Object.keys(holder.properties) : [];
  return {
    ...e,
    instancePath: `${e.instancePath}/${pointerPart(name)}`,
    params: { ...e.params, text: unknownFieldText(name, known) },
    message: unknownFieldMessage(name, known),
  };
}

/** The schema at a schema path of Ajv's (`#/properties/a/anyOf/0`). */
function schemaAt(schema: unknown, path: string): unknown {
  let node = schema;
  for (const part of path.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * The details of a body sent to a route that takes none (it has no schema to refuse fields with): each of its
 * fields named. No body, null, {} and [] pass, as clients that always send a body send those.
 */
export function unwantedBody(body: unknown): ErrorDetail[] {
  if (body === undefined || body === null || (Array.isArray(body) && body.length === 0)) return [];
  if (!isObject(body))
    return [
      { path: "/", message: "this operation takes no body: send none", text: { id: "error.detail.no_body" } },
    ];
  return Object.keys(body)
    .slice(0, MAX_NAMED)
    .map((name) => ({
      path: `/${pointerPart(name)}`,
      message: `unknown field "${shown(name)}": this operation takes no body`,
      text: { id: "error.detail.no_body_field", params: { name: shown(name) } },
    }));
}
