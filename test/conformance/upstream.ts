// Mozilla Monitor's own description of the Breach Alerts API (../shared/fixtures/monitor/openapi.yml,
// read-only, never copied into the project), made usable by the conformance suite: its schemas
// compiled by Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1, with the formats `date`,
// `date-time` and `email`), and a check of any response against what it documents.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const UPSTREAM_FILE = path.join(PROJECT_ROOT, '../shared/fixtures/monitor/openapi.yml');
export const UPSTREAM_MISSING_MESSAGE = `Mozilla Monitor's API document is not at ${UPSTREAM_FILE} (it lives outside the project, in ../shared/fixtures); the upstream contract tests are skipped`;

type Json = Record<string, unknown>;

export interface UpstreamExample {
  name: string;
  value: unknown;
}

export interface UpstreamOperation {
  path: string;
  method: string;
  operation: Json;
  /** Documented statuses, as numbers. */
  statuses: number[];
}

/** The upstream document, loaded and compiled once. */
export class Upstream {
  readonly document: Json;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(document: Json) {
    this.document = document;
    // strict: an OpenAPI keyword Ajv does not know would otherwise be ignored silently.
    this.#ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(this.#ajv, ['date', 'date-time', 'email']);
    // `#/components/schemas/X` references resolve against the document's own components.
    const defs = JSON.parse(JSON.stringify(this.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) as Json;
    this.#ajv.addSchema({ $id: 'upstream:components', $defs: defs });
  }

  get schemas(): Record<string, Json> {
    return ((this.document.components as Json).schemas ?? {}) as Record<string, Json>;
  }

  operations(): UpstreamOperation[] {
    const result: UpstreamOperation[] = [];
    for (const [route, item] of Object.entries(this.document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(item)) {
        const responses = ((operation as Json).responses ?? {}) as Json;
        result.push({ path: route, method: method.toUpperCase(), operation: operation as Json, statuses: Object.keys(responses).map(Number) });
      }
    }
    return result;
  }

  operation(method: string, route: string): UpstreamOperation | undefined {
    return this.operations().find((op) => op.method === method.toUpperCase() && op.path === route);
  }

  /** A validator for a schema of the document (inline or a reference), compiled once. */
  validator(schema: unknown): ValidateFunction {
    const text = JSON.stringify(schema).replaceAll('"#/components/schemas/', '"upstream:components#/$defs/');
    let validate = this.#compiled.get(text);
    if (!validate) this.#compiled.set(text, (validate = this.#ajv.compile(JSON.parse(text) as Json)));
    return validate;
  }

  /** The JSON schema of a documented response, or undefined where the document gives no body. */
  responseSchema(method: string, route: string, status: number): unknown {
    const response = (this.operation(method, route)?.operation.responses as Json | undefined)?.[String(status)] as Json | undefined;
    return ((response?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
  }

  requestSchema(method: string, route: string): unknown {
    const body = this.operation(method, route)?.operation.requestBody as Json | undefined;
    return ((body?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
  }

  requestExamples(method: string, route: string): UpstreamExample[] {
    const body = this.operation(method, route)?.operation.requestBody as Json | undefined;
    const examples = ((body?.content as Json | undefined)?.['application/json'] as Json | undefined)?.examples as Record<string, Json> | undefined;
    return Object.entries(examples ?? {}).map(([name, example]) => ({ name, value: example.value }));
  }

  responseExamples(method: string, route: string, status: number): UpstreamExample[] {
    const response = (this.operation(method, route)?.operation.responses as Json | undefined)?.[String(status)] as Json | undefined;
    const examples = ((response?.content as Json | undefined)?.['application/json'] as Json | undefined)?.examples as Record<string, Json> | undefined;
    return Object.entries(examples ?? {}).map(([name, example]) => ({ name, value: example.value }));
  }

  parameters(method: string, route: string): Json[] {
    return (this.operation(method, route)?.operation.parameters ?? []) as Json[];
  }
}

let loaded: Upstream | null | undefined;

/**
 * The upstream document, or undefined where `../shared` is absent (a fresh clone). Under CI
 * (`CI` set) its absence is an error: the contract tests must not pass by being skipped.
 */
export function loadUpstream(): Upstream | undefined {
  if (loaded === undefined) {
    if (!existsSync(UPSTREAM_FILE)) {
      if (process.env.CI) throw new Error(`${UPSTREAM_MISSING_MESSAGE}; CI is set, so this is a failure`);
      loaded = null;
    } else loaded = new Upstream(parse(readFileSync(UPSTREAM_FILE, 'utf8')) as Json);
  }
  return loaded ?? undefined;
}

/** {@link loadUpstream} for checks that ride along other tests: absent means no check (the upstream test file reports it). */
export function upstreamIfPresent(): Upstream | undefined {
  return existsSync(UPSTREAM_FILE) ? loadUpstream() : undefined;
}

export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${error.params ? ' ' + JSON.stringify(error.params) : ''}`).join('; ');
}

/**
 * Statuses the reference service answers that the upstream document does not list for that
 * operation: additions the contract (CONTRACT.md) makes, never contradictions of it.
 */
export const UNDOCUMENTED_STATUSES: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  'POST /user': {},
  'GET /user/breaches': {
    304: 'conditional GET with If-None-Match (ETag caching)',
    400: 'an invalid query parameter (e.g. includeSensitive=yes) is refused rather than ignored',
  },
  'POST /user/breaches/resolutions': {
    413: 'body larger than 1 MiB',
    415: 'body that is not JSON',
  },
};

export interface ObservedResponse {
  method: string;
  /** Path below the API base, without query string. */
  route: string;
  status: number;
  contentType: string;
  json: unknown;
}

/**
 * What the upstream document says about one response of the service: undefined when it
 * conforms (or the operation is not in the document), otherwise why not. A body is checked
 * against the documented schema wherever the document gives one for that status.
 */
export function upstreamViolation(upstream: Upstream, response: ObservedResponse): string | undefined {
  const operation = upstream.operation(response.method, response.route);
  if (!operation) return undefined;
  const name = `${response.method} ${response.route}`;
  if (!operation.statuses.includes(response.status)) {
    if (UNDOCUMENTED_STATUSES[name]?.[response.status] !== undefined) return undefined;
    return `${name} answered ${response.status}, which the upstream document does not list (${operation.statuses.join(', ')})`;
  }
  const schema = upstream.responseSchema(response.method, response.route, response.status);
  if (schema === undefined) return undefined;
  if (!/^application\/json/i.test(response.contentType)) return `${name} ${response.status} has Content-Type "${response.contentType}", the document says application/json`;
  const validate = upstream.validator(schema);
  if (validate(response.json)) return undefined;
  return `${name} ${response.status} does not match the upstream schema: ${describeErrors(validate.errors)}`;
}
