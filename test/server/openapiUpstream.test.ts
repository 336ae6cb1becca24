// Our generated server/openapi.yaml against Mozilla Monitor's own document
// (../shared/fixtures/monitor/openapi.yml): every upstream path, method, status, parameter and
// schema field is present in ours with a compatible type. Ours may add (fields, statuses,
// limits on what it accepts), never contradict. The additions that narrow what a request may
// carry are listed below, each with its reason, so a new one cannot slip in unnoticed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OPENAPI_FILE } from '../../server/openapi/document.ts';
import { loadUpstream, UPSTREAM_FILE, UPSTREAM_MISSING_MESSAGE } from '../conformance/upstream.ts';

type Schema = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Schema> }; security?: unknown[] };

/** Which way data flows: what we send must fit upstream's schema; what we accept must take everything upstream's allows. */
type Direction = 'response' | 'request';

const NARROWING = ['minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'minimum', 'maximum'] as const;

/**
 * Differences between the two documents, one line each. Contradictions (a missing path,
 * field, status or parameter, another type or format, a field upstream requires in an answer
 * that ours may leave out, a field ours requires in a request that upstream does not) and, for
 * requests, constraints ours adds that upstream does not have.
 */
export function compareDocuments(upstream: Doc, ours: Doc): string[] {
  const found: string[] = [];
  const resolve = (doc: Doc, schema: Schema | undefined): Schema | undefined => {
    let current = schema;
    for (let hops = 0; current?.$ref !== undefined && hops < 20; hops++) current = doc.components.schemas[String(current.$ref).split('/').pop()!];
    return current;
  };

  const compare = (upSchema: Schema | undefined, ourSchema: Schema | undefined, where: string, direction: Direction): void => {
    const up = resolve(upstream, upSchema);
    const own = resolve(ours, ourSchema);
    if (!up) return;
    if (!own) return void found.push(`${where}: missing`);
    if (up.type !== undefined && JSON.stringify(own.type) !== JSON.stringify(up.type)) found.push(`${where}: type ${JSON.stringify(own.type)}, upstream ${JSON.stringify(up.type)}`);
    if (up.format !== undefined && own.format !== up.format) found.push(`${where}: format ${String(own.format)}, upstream ${String(up.format)}`);
    for (const keyword of NARROWING) {
      if (own[keyword] === undefined || own[keyword] === up[keyword]) continue;
      // A pattern is named, not quoted: the line is a key of DELIBERATE_NARROWINGS.
      const value = keyword === 'pattern' ? '' : ` ${JSON.stringify(own[keyword])}`;
      if (direction === 'request') found.push(`${where}: ours adds ${keyword}${value}${up[keyword] === undefined ? '' : ` (upstream ${JSON.stringify(up[keyword])})`}`);
    }
    if (direction === 'response')
      for (const keyword of NARROWING) if (up[keyword] !== undefined && own[keyword] !== up[keyword]) found.push(`${where}: ${keyword} ${String(own[keyword])}, upstream ${String(up[keyword])}`);

    const upProps = (up.properties ?? {}) as Record<string, Schema>;
    const ownProps = (own.properties ?? {}) as Record<string, Schema>;
    for (const [name, sub] of Object.entries(upProps)) {
      if (!(name in ownProps)) found.push(`${where}.${name}: missing`);
      else compare(sub, ownProps[name], `${where}.${name}`, direction);
    }
    const upRequired = new Set((up.required ?? []) as string[]);
    const ownRequired = new Set((own.required ?? []) as string[]);
    if (direction === 'response') for (const name of upRequired) if (!ownRequired.has(name)) found.push(`${where}.${name}: upstream requires it in answers, ours may leave it out`);
    if (direction === 'request') for (const name of ownRequired) if (!upRequired.has(name)) found.push(`${where}.${name}: ours requires it, upstream does not`);
    if (up.additionalProperties === false && own.additionalProperties !== false && direction === 'response') found.push(`${where}: upstream allows no other properties, ours does`);
    if (typeof up.additionalProperties === 'object') compare(up.additionalProperties as Schema, own.additionalProperties as Schema | undefined, `${where}{*}`, direction);
    if (up.items !== undefined) compare(up.items as Schema, own.items as Schema | undefined, `${where}[]`, direction);
  };

  for (const [route, item] of Object.entries(upstream.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const name = `${method.toUpperCase()} ${route}`;
      const own = ours.paths[route]?.[method];
      if (!own) {
        found.push(`${name}: missing`);
        continue;
      }
      for (const parameter of (operation.parameters ?? []) as Schema[]) {
        const where = `${name} parameter ${String(parameter.name)}`;
        const match = ((own.parameters ?? []) as Schema[]).find((p) => p.name === parameter.name && p.in === parameter.in);
        if (!match) {
          found.push(`${where}: missing`);
          continue;
        }
        if (Boolean(match.required) && !parameter.required) found.push(`${where}: ours requires it, upstream does not`);
        for (const key of ['style', 'explode'] as const)
          if (parameter[key] !== undefined && match[key] !== parameter[key]) found.push(`${where}: ${key} ${String(match[key])}, upstream ${String(parameter[key])}`);
        compare(parameter.schema as Schema, match.schema as Schema, where, 'request');
      }
      const upBody = operation.requestBody as Schema | undefined;
      if (upBody) {
        const ownBody = own.requestBody as Schema | undefined;
        if (!ownBody) found.push(`${name} request body: missing`);
        else {
          if (Boolean(ownBody.required) !== Boolean(upBody.required)) found.push(`${name} request body: required ${String(ownBody.required)}, upstream ${String(upBody.required)}`);
          compare(jsonSchemaOf(upBody), jsonSchemaOf(ownBody), `${name} request body`, 'request');
        }
      }
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Schema>)) {
        const ownResponse = ((own.responses ?? {}) as Record<string, Schema>)[status];
        if (!ownResponse) found.push(`${name} ${status}: missing`);
        else compare(jsonSchemaOf(response), jsonSchemaOf(ownResponse), `${name} ${status}`, 'response');
      }
    }
  }
  for (const [name, scheme] of Object.entries(upstream.components.securitySchemes)) {
    const match = Object.values(ours.components.securitySchemes).find((s) => s.type === scheme.type && s.scheme === scheme.scheme);
    if (!match) found.push(`security scheme ${name} (${String(scheme.type)} ${String(scheme.scheme)}): missing`);
  }
  // Every named upstream schema, field by field, as an answer (they describe answers).
  for (const [name, schema] of Object.entries(upstream.components.schemas)) compare(schema, ours.components.schemas[name], `schema ${name}`, 'response');
  return found;
}

function jsonSchemaOf(part: Schema): Schema | undefined {
  return ((part.content as Record<string, Schema> | undefined)?.['application/json'] as Schema | undefined)?.schema as Schema | undefined;
}

/** What our document adds that narrows upstream's requests, and why each is kept. */
const DELIBERATE_NARROWINGS: Record<string, string> = {
  'GET /user/breaches parameter dataClasses[]: ours adds minLength 1': 'an empty name names no class; answered 400 with a pointer rather than silently matching nothing',
  'GET /user/breaches parameter unresolvedDataClasses[]: ours adds minLength 1': 'as for dataClasses',
  'POST /user/breaches/resolutions request body: ours adds maxItems 1000': 'request limit (CONTRACT.md): one atomic transaction stays bounded',
  'POST /user/breaches/resolutions request body[].breachId: ours adds minLength 1': 'an empty id names no breach (upstream would answer 404; ours says 400 with a pointer)',
  'POST /user/breaches/resolutions request body[].dataClasses: ours adds maxItems 100': 'request limit (CONTRACT.md)',
  'POST /user/breaches/resolutions request body[].dataClasses[]: ours adds minLength 1': 'an empty name names no class; upstream lists "empty dataClasses" among its 400s',
  'POST /user/breaches/resolutions request body[].emails: ours adds maxItems 1000': 'request limit (CONTRACT.md)',
  'POST /user/breaches/resolutions request body[].emails[]: ours adds maxLength 254': 'RFC 5321 caps a forward path at 256 octets, an address at 254; longer "emails" are refused with the other 400s',
  'POST /user/breaches/resolutions request body[].emails[]: ours adds pattern':
    "zod's spelling of format email (a dotted domain with a TLD); upstream says format: email, and lists an invalid email among its 400s",
};

const upstream = loadUpstream();
if (!upstream) console.warn(UPSTREAM_MISSING_MESSAGE);

describe.skipIf(!upstream)(`server/openapi.yaml against ${UPSTREAM_FILE}`, () => {
  const ours = parse(readFileSync(OPENAPI_FILE, 'utf8')) as Doc;

  it('has every upstream path, status, parameter and schema field with a compatible type; the only differences are deliberate request limits', () => {
    expect(compareDocuments(upstream!.document as Doc, ours).sort()).toEqual(Object.keys(DELIBERATE_NARROWINGS).sort());
  });

  it('finds what would contradict upstream', () => {
    const broken = structuredClone(ours);
    delete broken.paths['/user/breaches']!.get!.parameters;
    const breach = broken.components.schemas.Breach!;
    (breach.properties as Record<string, Schema>).isSensitive = { type: 'string' };
    (breach.properties as Record<string, Schema>).addedDate = { type: 'string' };
    breach.required = (breach.required as string[]).filter((name) => name !== 'domain');
    delete (broken.paths['/user/breaches/resolutions']!.post!.responses as Record<string, unknown>)['404'];
    const found = compareDocuments(upstream!.document as Doc, broken);
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /user/breaches parameter domain: missing',
        'GET /user/breaches parameter includeSensitive: missing',
        'schema Breach.isSensitive: type "string", upstream "boolean"',
        'schema Breach.addedDate: format undefined, upstream date-time',
        'schema Breach.domain: upstream requires it in answers, ours may leave it out',
        'GET /user/breaches 200[].breach.isSensitive: type "string", upstream "boolean"',
        'POST /user/breaches/resolutions 404: missing',
      ]),
    );
  });
});
