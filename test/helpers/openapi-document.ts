import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** A JSON Schema object in the OpenAPI 3.0 dialect (`nullable`, `example`, `$ref` to components). */
export type SchemaObject = { [keyword: string]: unknown };

/** A `$ref` pointing into the document's components. */
export type ReferenceObject = { $ref: string };

export type MediaTypeObject = { schema?: SchemaObject | ReferenceObject; example?: unknown };

export type HeaderObject = { description?: string; schema?: SchemaObject | ReferenceObject };

export type ResponseObject = {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
};

export type ParameterObject = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  style?: string;
  explode?: boolean;
  schema?: SchemaObject | ReferenceObject;
};

export type OperationObject = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<ParameterObject | ReferenceObject>;
  responses: Record<string, ResponseObject | ReferenceObject>;
};

/** mirrorlite serves GET only. */
export type PathItemObject = { get?: OperationObject; post?: OperationObject };

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, SchemaObject>;
    parameters: Record<string, ParameterObject>;
    responses: Record<string, ResponseObject>;
    headers?: Record<string, HeaderObject>;
  };
};

const documentUrl = new URL("../../src/api/openapi.yaml", import.meta.url);

let cachedText: string | undefined;
let cachedDocument: OpenApiDocument | undefined;

/** The OpenAPI document exactly as written, for serving `GET /api/v1/docs/openapi.yml`. Read once. */
export function loadOpenApiYaml(): string {
  cachedText ??= readFileSync(documentUrl, "utf8");
  return cachedText;
}

/**
 * The parsed OpenAPI document (for `GET /api/v1/docs/openapi.json` and response validation in tests).
 * Parsed once; the result is deeply frozen because every caller shares it.
 */
export function loadOpenApiDocument(): OpenApiDocument {
  if (cachedDocument === undefined) {
    const parsed: unknown = parse(loadOpenApiYaml());
    assertOpenApi30(parsed);
    cachedDocument = deepFreeze(parsed);
  }
  return cachedDocument;
}

function assertOpenApi30(value: unknown): asserts value is OpenApiDocument {
  const where = documentUrl.pathname;
  if (!isRecord(value)) throw new Error(`${where}: not a YAML mapping`);
  if (typeof value["openapi"] !== "string" || !value["openapi"].startsWith("3.0.")) {
    throw new Error(`${where}: expected "openapi: 3.0.x", found ${JSON.stringify(value["openapi"])}`);
  }
  if (!isRecord(value["paths"])) throw new Error(`${where}: "paths" is missing`);
  const components = value["components"];
  if (!isRecord(components)) throw new Error(`${where}: "components" is missing`);
  for (const section of ["schemas", "parameters", "responses"]) {
    if (!isRecord(components[section])) throw new Error(`${where}: "components.${section}" is missing`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
