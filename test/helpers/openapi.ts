import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import type {
  OpenApiDocument,
  OperationObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from "./openapi-document.ts";
import { loadOpenApiDocument } from "./openapi-document.ts";

/** The HTTP methods the document describes (POST: fee estimation only). */
export type Method = "get" | "post";

/** Where the converted component schemas live inside ajv. */
const COMPONENTS_ID = "mirrorlite-openapi";
const SCHEMA_REF_PREFIX = "#/components/schemas/";
const RESPONSE_REF_PREFIX = "#/components/responses/";

/** OpenAPI 3.0 annotations that are not JSON Schema keywords; ajv's strict mode would reject them. */
const OPENAPI_ONLY_KEYWORDS = new Set(["example", "externalDocs", "xml", "discriminator"]);
const COMBINATORS = ["allOf", "anyOf", "oneOf", "not"];

/**
 * Throws unless `body` is exactly what the OpenAPI document promises for `status` on the operation whose path
 * template matches `path` (a concrete request path; query string ignored). A path or status the document
 * does not describe is an error too: an undocumented response is a bug. Integer fields may hold `bigint`s
 * (as a bigint-aware JSON parser yields); they are checked as numbers.
 */
export function validateResponse(args: {
  path: string;
  method?: Method;
  status: number;
  body: unknown;
  /** The documented content type to check against (default `application/json`), e.g. `text/plain`. */
  contentType?: string;
}): void {
  const method = args.method ?? "get";
  const template = matchPathTemplate(args.path);
  const validate = compileResponseValidator({
    template,
    method,
    status: args.status,
    contentType: args.contentType,
  });
  if (validate(withBigIntsAsNumbers(args.body))) return;
  const lines = (validate.errors ?? []).map(describeAjvError);
  throw new Error(
    `${method.toUpperCase()} ${args.path} → ${args.status}: body does not match ${template} in the OpenAPI ` +
      `document (${lines.length} error${lines.length === 1 ? "" : "s"}):\n  ${lines.join("\n  ")}`,
  );
}

/**
 * The path template of the document that serves a concrete request path. Where several match, literal
 * segments win over `{parameters}` from left to right, so `/api/v1/tokens/balances` is its own path and not
 * `/api/v1/tokens/{tokenId}`.
 */
export function matchPathTemplate(path: string): string {
  const segments = splitRequestPath(path);
  let best: { template: string; literals: boolean[] } | undefined;
  for (const template of Object.keys(loadOpenApiDocument().paths)) {
    const parts = template.split("/");
    if (parts.length !== segments.length) continue;
    const literals = parts.map((part) => !/^\{[^}]+\}$/.test(part));
    if (!parts.every((part, i) => !literals[i] || part === segments[i])) continue;
    if (best === undefined || prefersLiterals(literals, best.literals)) best = { template, literals };
  }
  if (best === undefined) throw new Error(`no path in the OpenAPI document matches ${path}`);
  return best.template;
}

/** Every (path template, method, status) the document describes, for exhaustive checks. */
export function listDocumentedResponses(): Array<{ template: string; method: Method; status: number }> {
  const found: Array<{ template: string; method: Method; status: number }> = [];
  for (const [template, item] of Object.entries(loadOpenApiDocument().paths)) {
    for (const method of ["get", "post"] as const) {
      const operation = item[method];
      if (operation === undefined) continue;
      for (const [status, entry] of Object.entries(operation.responses)) {
        // Only JSON bodies are validated: the YAML document, the docs page and /metrics are text.
        const content = "$ref" in entry ? undefined : entry.content;
        if (content !== undefined && content["application/json"] === undefined) continue;
        found.push({ template, method, status: +status });
      }
    }
  }
  return found;
}

const validators = new Map<string, ValidateFunction>();

/** The compiled ajv validator for one documented response body (compiled once, then cached). */
export function compileResponseValidator(args: {
  template: string;
  method: Method;
  status: number;
  contentType?: string;
}): ValidateFunction {
  const contentType = args.contentType ?? "application/json";
  const key = `${args.method} ${args.template} ${args.status} ${contentType}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const schema = responseSchema(args.template, args.method, args.status, contentType);
    validate = getAjv().compile(convertOpenApiSchema(schema, key));
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Follows a local `$ref` (`#/a/b/c`, JSON Pointer escapes included) through the document; throws when it
 * does not resolve.
 */
export function resolveRef(ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported: ${ref}`);
  let node: unknown = loadOpenApiDocument();
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) {
      throw new Error(`$ref ${ref} does not resolve (no "${key}")`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Rewrites one OpenAPI 3.0 schema as JSON Schema draft-07 for ajv: `nullable: true` admits null, `$ref`s
 * to component schemas point at the copy registered in ajv, and OpenAPI-only annotations are dropped.
 * `where` names the schema in error messages.
 */
export function convertOpenApiSchema(input: SchemaObject | ReferenceObject, where: string): SchemaObject {
  const schema: SchemaObject = input;
  const ref = schema["$ref"];
  if (ref !== undefined) {
    if (typeof ref !== "string") throw new Error(`${where}: $ref is not a string`);
    const siblings = Object.keys(schema).filter((key) => key !== "$ref");
    // OpenAPI 3.0 ignores every keyword beside $ref, so a sibling there is a mistake in the document.
    if (siblings.length > 0) {
      throw new Error(`${where}: keywords beside $ref are ignored: ${siblings.join(", ")}`);
    }
    return { $ref: componentRef(ref, where) };
  }
  const converted: SchemaObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (OPENAPI_ONLY_KEYWORDS.has(keyword) || keyword === "nullable") continue;
    converted[keyword] = convertKeyword(keyword, value, `${where}/${keyword}`);
  }
  return schema["nullable"] === true ? admitNull(converted, where) : converted;
}

function convertKeyword(keyword: string, value: unknown, where: string): unknown {
  switch (keyword) {
    case "properties":
      return Object.fromEntries(
        Object.entries(value as Record<string, SchemaObject>).map(([name, sub]) => [
          name,
          convertOpenApiSchema(sub, `${where}/${name}`),
        ]),
      );
    case "items":
    case "not":
      return convertOpenApiSchema(value as SchemaObject, where);
    case "additionalProperties":
      return typeof value === "boolean" ? value : convertOpenApiSchema(value as SchemaObject, where);
    case "allOf":
    case "anyOf":
    case "oneOf":
      return (value as SchemaObject[]).map((sub, i) => convertOpenApiSchema(sub, `${where}/${i}`));
    default:
      return value;
  }
}

function admitNull(schema: SchemaObject, where: string): SchemaObject {
  if (COMBINATORS.some((keyword) => keyword in schema)) return { anyOf: [{ type: "null" }, schema] };
  const type = schema["type"];
  // OpenAPI 3.0.3: nullable has no effect without a type in the same schema.
  if (typeof type !== "string") throw new Error(`${where}: nullable needs a single "type" beside it`);
  const nullable: SchemaObject = { ...schema, type: [type, "null"] };
  const values = schema["enum"];
  if (Array.isArray(values) && !values.includes(null)) nullable["enum"] = [...values, null];
  return nullable;
}

function componentRef(ref: string, where: string): string {
  if (!ref.startsWith(SCHEMA_REF_PREFIX))
    throw new Error(`${where}: $ref outside components.schemas: ${ref}`);
  const name = ref.slice(SCHEMA_REF_PREFIX.length);
  if (!Object.hasOwn(loadOpenApiDocument().components.schemas, name)) {
    throw new Error(`${where}: $ref ${ref} does not resolve`);
  }
  return `${COMPONENTS_ID}#/definitions/${name}`;
}

let ajv: Ajv | undefined;

function getAjv(): Ajv {
  if (ajv !== undefined) return ajv;
  const instance = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
  instance.addFormat("int32", {
    type: "number",
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  // A parsed int64 near the top of its range rounds up to 2^63 as a double, so 2^63 itself must pass.
  instance.addFormat("int64", {
    type: "number",
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 63,
  });
  instance.addFormat("byte", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  const definitions = Object.fromEntries(
    Object.entries(loadOpenApiDocument().components.schemas).map(([name, schema]) => [
      name,
      convertOpenApiSchema(schema, `components/schemas/${name}`),
    ]),
  );
  instance.addSchema({ $id: COMPONENTS_ID, definitions });
  ajv = instance;
  return instance;
}

function responseSchema(
  template: string,
  method: Method,
  status: number,
  contentType: string,
): SchemaObject | ReferenceObject {
  const document: OpenApiDocument = loadOpenApiDocument();
  const operation: OperationObject | undefined = document.paths[template]?.[method];
  const label = `${method.toUpperCase()} ${template}`;
  if (operation === undefined) throw new Error(`${label} is not in the OpenAPI document`);
  const entry = operation.responses[String(status)];
  if (entry === undefined) {
    const documented = Object.keys(operation.responses).join(", ");
    throw new Error(`${label} has no documented ${status} response (documented: ${documented})`);
  }
  const response = "$ref" in entry ? resolveResponseRef(entry.$ref, label) : entry;
  const schema = response.content?.[contentType]?.schema;
  if (schema === undefined) throw new Error(`${label} ${status} documents no ${contentType} body`);
  return schema;
}

function resolveResponseRef(ref: string, label: string): ResponseObject {
  const name = ref.startsWith(RESPONSE_REF_PREFIX) ? ref.slice(RESPONSE_REF_PREFIX.length) : undefined;
  const response = name === undefined ? undefined : loadOpenApiDocument().components.responses[name];
  if (response === undefined) throw new Error(`${label}: response $ref ${ref} does not resolve`);
  return response;
}

function splitRequestPath(path: string): string[] {
  const pathname = /^https?:\/\//.test(path) ? new URL(path).pathname : (path.split(/[?#]/)[0] ?? "");
  // Express routes `/x/` like `/x`, so a trailing slash does not change the operation.
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return trimmed.split("/").map(decodeSegment);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** True when `a` has a literal segment at the first position where `a` and `b` differ in kind. */
function prefersLiterals(a: boolean[], b: boolean[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] === true;
  }
  return false;
}

function describeAjvError(error: ErrorObject): string {
  const at = error.instancePath === "" ? "(body)" : error.instancePath;
  const params = Object.entries(error.params)
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(", ");
  return `${at} ${error.message ?? error.keyword}${params === "" ? "" : ` (${params})`} [schema ${error.schemaPath}]`;
}

function withBigIntsAsNumbers(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(withBigIntsAsNumbers);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, withBigIntsAsNumbers(child)]),
    );
  }
  return value;
}
