import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../tools/openapi/document';
import type { HttpVerb, JsonSchema, OperationObject, ParameterObject } from '../../tools/openapi/types';
import { routeList } from '../../lib/routes';
import { promoteOrCreateAdmin } from '../../tools/admin/create-admin';
import { call, newTenantWithAdmin, signInWithSecondFactor, uniqueEmail, uniqueName, useLocalStoreInProcess } from './api';

/**
 * Who may call an operation: a tenant's administrator, or for the platform administrators'
 * routes one of them (the handler answers anyone else 403 before it looks at the input). A fresh
 * account each time: its per-user rate limits and its session are its own.
 */
async function callerFor(method: string, template: string): Promise<Record<string, string>> {
  const route = routeList().find((candidate) => candidate.method === method && candidate.path === template);
  if (route?.admin !== 'platform') return (await newTenantWithAdmin()).cookies;
  await useLocalStoreInProcess();
  const email = uniqueEmail('root');
  const password = 'correct horse battery';
  const created = await promoteOrCreateAdmin({ email, password, name: 'Root', tenantName: uniqueName('platform'), promote: false }, Date.now());
  return (await signInWithSecondFactor(email, password, created.secondFactor.secret)).cookies;
}

/**
 * Does the server validate what the OpenAPI document says it validates? Driven by the document
 * alone (the one `npm run openapi` writes): for every operation, request bodies, query strings
 * and path parameters are generated from its schemas, deterministically:
 *
 * - valid ones (the schemas' examples, else the simplest value within the bounds; each branch
 *   of a `oneOf`; only the required properties, then all of them; then one value at a time at
 *   the edges: each end of a range, the longest string, an enum's first and last options,
 *   `null`), which the server must not refuse with a 400 (a 401, 403, 404 or 409 of its
 *   business rules is fine);
 * - "just-invalid" ones: a valid request with one constraint broken (a required property left
 *   out, an extra one where `additionalProperties` is false, below a minimum, above a maximum,
 *   outside an enum, too short, too long, a pattern broken, the wrong type), which the server
 *   must refuse with a 400 validation problem.
 *
 * Every generated request is first checked against the document itself (Ajv), so the test
 * cannot drift into testing values the document does not call valid or invalid.
 */

const document = buildOpenApiDocument();
const schemas = document.components.schemas;

const DEFS_ID = 'urn:fidelity:components';
const SCHEMA_REF = '#/components/schemas/';

/** The components as Ajv reads them: references to its `$defs`, `discriminator` without `mapping` (Ajv finds the branch by its `const`). */
const forAjv = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, child: unknown) => (key === 'mapping' ? undefined : child)).replaceAll(`"${SCHEMA_REF}`, `"${DEFS_ID}#/$defs/`));

const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
addFormats(ajv);
ajv.addSchema({ $id: DEFS_ID, $defs: forAjv(schemas) as Record<string, JsonSchema> });

const compiled = new Map<JsonSchema, ValidateFunction>();
/** Whether the document's schema accepts a value. */
function accepts(schema: JsonSchema, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(forAjv(schema) as JsonSchema);
    compiled.set(schema, validate);
  }
  return validate(value);
}

const deref = (schema: JsonSchema): JsonSchema => {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = schemas[ref.slice(SCHEMA_REF.length)];
  if (!target) throw new Error(`no component ${ref}`);
  return deref(target);
};

const propertiesOf = (schema: JsonSchema) => (schema.properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (schema: JsonSchema) => (schema.required ?? []) as string[];
const branchesOf = (schema: JsonSchema, keyword: 'oneOf' | 'anyOf') => ((schema[keyword] ?? []) as JsonSchema[]).map(deref);
const isNull = (schema: JsonSchema) => schema.type === 'null';

/** Plain strings tried, in order, when a string schema has no example. */
const STRING_CANDIDATES = ['Loja da Ana', 'loja-da-ana', 'correct horse battery', 'CAFE-500G', '123456', 'ABCD-EFGH-JK', 'a'];

/** The simplest valid value of a schema: its example, its first option, else the lowest bound. */
function validValue(raw: JsonSchema, where: string): unknown {
  const schema = deref(raw);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const union = [...branchesOf(schema, 'oneOf'), ...branchesOf(schema, 'anyOf')].filter((branch) => !isNull(branch));
  if (union[0] && schema.type === undefined) return validValue(union[0], where);
  switch (schema.type) {
    case 'object':
      return validObjects(schema, where)[0];
    case 'array':
      return typeof schema.minItems === 'number' && schema.minItems > 0
        ? Array.from({ length: schema.minItems }, () => validValue(schema.items as JsonSchema, `${where}[]`))
        : [];
    case 'boolean':
      return true;
    case 'number':
    case 'integer': {
      const lowest = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
      return typeof schema.maximum === 'number' ? Math.min(lowest, schema.maximum) : lowest;
    }
    case 'string': {
      const found = STRING_CANDIDATES.find((candidate) => accepts(schema, candidate));
      if (found === undefined) throw new Error(`${where}: no valid string for ${JSON.stringify(schema)}; give the schema an example`);
      return found;
    }
    default:
      // Any JSON value.
      return {};
  }
}

/** Valid objects of an object schema (each branch of a `oneOf`): the required properties only, then every property. */
function validObjects(raw: JsonSchema, where: string): Record<string, unknown>[] {
  const schema = deref(raw);
  const branches = branchesOf(schema, 'oneOf');
  if (branches.length > 0 && branches.every((branch) => branch.type === 'object')) return branches.flatMap((branch) => validObjects(branch, where));
  const properties = propertiesOf(schema);
  const build = (names: string[]) => Object.fromEntries(names.map((name) => [name, validValue(properties[name] as JsonSchema, `${where}.${name}`)]));
  const candidates = [build(requiredOf(schema)), build(Object.keys(properties))];
  // "Exactly one of" (a `oneOf` of `required` lists): the required ones and each alternative alone.
  for (const alternative of branches) candidates.push(build([...requiredOf(schema), ...requiredOf(alternative)]));
  const valid = candidates.filter(
    (candidate, index) => accepts(schema, candidate) && candidates.findIndex((other) => JSON.stringify(other) === JSON.stringify(candidate)) === index,
  );
  if (valid.length === 0) throw new Error(`${where}: no valid object generated for ${JSON.stringify(schema).slice(0, 300)}`);
  return valid;
}

interface Mutation {
  what: string;
  value: unknown;
}

/** Strings tried to break a pattern or a format without breaking the length bounds. */
const PATTERN_BREAKERS = ['not valid!', 'x\u0001y', '\u202eabc', ' ', '!', 'zz', '0', 'ab-12'];

/** Values that break exactly one constraint of `raw` that `value` (valid) satisfies. */
function mutations(raw: JsonSchema, value: unknown, where: string): Mutation[] {
  const schema = deref(raw);
  const result: Mutation[] = [];
  const add = (what: string, broken: unknown) => result.push({ what: `${where}: ${what}`, value: broken });

  const branches = [...branchesOf(schema, 'oneOf'), ...branchesOf(schema, 'anyOf')];
  const objectBranch = branches.find((branch) => branch.type === 'object' && accepts(branch, value));
  if (objectBranch) return mutations(objectBranch, value, where);
  const valueBranch = schema.type === undefined ? branches.find((branch) => !isNull(branch) && accepts(branch, value)) : undefined;
  if (valueBranch) return mutations(valueBranch, value, where);

  if (Array.isArray(schema.enum)) add('outside the enum', typeof schema.enum[0] === 'string' ? 'NOT_AN_OPTION' : -999);
  if ('const' in schema) add('not the constant', `NOT_${String(schema.const)}`);

  switch (schema.type) {
    case 'object': {
      if (value === null || typeof value !== 'object') break;
      const object = value as Record<string, unknown>;
      for (const name of requiredOf(schema)) {
        if (!(name in object)) continue;
        const { [name]: _left, ...rest } = object;
        add(`required ${name} missing`, rest);
      }
      if (schema.additionalProperties === false) add('an extra property', { ...object, unexpectedField: 1 });
      // The branch of a oneOf must not take a property of another (SALE with a unit cost).
      for (const [name, child] of Object.entries(object)) {
        const property = propertiesOf(schema)[name];
        if (!property) continue;
        for (const mutation of mutations(property, child, `${where}.${name}`))
          result.push({ what: mutation.what, value: { ...object, [name]: mutation.value } });
      }
      add('not an object', 'text');
      break;
    }
    case 'string': {
      if (typeof schema.minLength === 'number' && schema.minLength > 0) add(`shorter than ${schema.minLength}`, 'x'.repeat(schema.minLength - 1));
      if (typeof schema.maxLength === 'number') add(`longer than ${schema.maxLength}`, 'x'.repeat(schema.maxLength + 1));
      const patterned = schema.pattern !== undefined || schema.allOf !== undefined || schema.format !== undefined;
      const lengthOnly = {
        type: 'string',
        ...(schema.minLength === undefined ? {} : { minLength: schema.minLength }),
        ...(schema.maxLength === undefined ? {} : { maxLength: schema.maxLength }),
      };
      const breaker = patterned ? PATTERN_BREAKERS.find((candidate) => accepts(lengthOnly, candidate) && !accepts(schema, candidate)) : undefined;
      if (breaker !== undefined) add(`pattern or format broken (${JSON.stringify(breaker)})`, breaker);
      add('not a string', 12345);
      break;
    }
    case 'number':
    case 'integer':
      if (typeof schema.minimum === 'number') add(`below the minimum ${schema.minimum}`, schema.minimum - 1);
      if (typeof schema.exclusiveMinimum === 'number') add(`at the exclusive minimum ${schema.exclusiveMinimum}`, schema.exclusiveMinimum);
      if (typeof schema.maximum === 'number') add(`above the maximum ${schema.maximum}`, schema.maximum + 1);
      if (schema.type === 'integer') add('not an integer', Number(value) + 0.5);
      add('not a number', 'twelve');
      break;
    case 'boolean':
      add('not a boolean', 'yes');
      break;
    case 'array':
      add('not an array', 'text');
      break;
    default:
      break;
  }
  return result;
}

/**
 * Other valid values of a schema, at its edges: each end of a range, the longest and shortest
 * strings, the first and last options of an enum, `null` where allowed. Inside an object, one
 * property at a time. Kept only where the document accepts them.
 */
function edges(raw: JsonSchema, value: unknown, where: string): Mutation[] {
  const schema = deref(raw);
  const result: Mutation[] = [];
  const add = (what: string, edge: unknown) => result.push({ what: `${where}: ${what}`, value: edge });

  const branches = [...branchesOf(schema, 'oneOf'), ...branchesOf(schema, 'anyOf')];
  const objectBranch = branches.find((branch) => branch.type === 'object' && accepts(branch, value));
  if (objectBranch) return edges(objectBranch, value, where);
  if (branches.some(isNull)) add('null', null);
  const valueBranch = schema.type === undefined ? branches.find((branch) => !isNull(branch) && accepts(branch, value)) : undefined;
  if (valueBranch) return [...result, ...edges(valueBranch, value, where)];

  if (Array.isArray(schema.enum)) for (const option of new Set([schema.enum[0], schema.enum.at(-1)])) add(`option ${JSON.stringify(option)}`, option);
  switch (schema.type) {
    case 'object':
      if (value === null || typeof value !== 'object') break;
      for (const [name, child] of Object.entries(value)) {
        const property = propertiesOf(schema)[name];
        if (property) for (const edge of edges(property, child, `${where}.${name}`)) result.push({ what: edge.what, value: { ...value, [name]: edge.value } });
      }
      break;
    case 'string':
      if (!Array.isArray(schema.enum) && schema.pattern === undefined && schema.format === undefined && schema.allOf === undefined) {
        if (typeof schema.maxLength === 'number') add(`${schema.maxLength} characters`, 'x'.repeat(schema.maxLength));
        if (typeof schema.minLength === 'number' && schema.minLength > 0) add(`${schema.minLength} characters`, 'x'.repeat(schema.minLength));
      } else if (typeof schema.maxLength === 'number' && typeof value === 'string' && value.length < schema.maxLength) {
        add(`${schema.maxLength} characters`, `${value}${'x'.repeat(schema.maxLength - value.length)}`);
      }
      break;
    case 'number':
    case 'integer':
      if (typeof schema.minimum === 'number') add(`the minimum ${schema.minimum}`, schema.minimum);
      if (typeof schema.exclusiveMinimum === 'number') add(`just above ${schema.exclusiveMinimum}`, schema.exclusiveMinimum + 1);
      if (typeof schema.maximum === 'number') add(`the maximum ${schema.maximum}`, schema.maximum);
      break;
    case 'boolean':
      add('false', false);
      break;
    default:
      break;
  }
  return result.filter((edge) => accepts(schema, edge.value));
}

/** A generated value as text in a URL (path parameters and query values are text). */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** A query value as the document reads it: a number parameter's text is its number. */
const queryValue = (schema: JsonSchema, text: string): unknown =>
  (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;

interface Case {
  what: string;
  valid: boolean;
  path: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

/**
 * A list's cursor is a token the server issued (opaque in the document): a made-up one is
 * rightly refused, so a valid query never carries one; its length bound is still tested.
 */
const SERVER_ISSUED = new Set(['cursor']);

/**
 * Fields a request can be refused on by a rule that needs the server's state: the current
 * password (a wrong one is a 400 naming it: change-password and the second factor's step-up),
 * a reset token (one the server mailed) and the company an API key is limited to (one of the
 * tenant's). A valid request may get a 400 naming only these.
 */
const STATEFUL_FIELDS: Partial<Record<string, string[]>> = {
  changePassword: ['currentPassword'],
  createApiKey: ['companyId'],
  startTotpEnrolment: ['password'],
  resetPassword: ['token'],
  // The SSRF guard resolves the host: the example's name resolves to no public address here.
  createWebhookEndpoint: ['url'],
  updateWebhookEndpoint: ['url'],
};

function casesOf(operation: OperationObject): Case[] {
  const parameters: ParameterObject[] = operation.parameters ?? [];
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const path = Object.fromEntries(pathParameters.map((parameter) => [parameter.name, asText(validValue(parameter.schema, parameter.name))]));
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const bodies = bodySchema ? validObjects(bodySchema, 'body') : [undefined];
  const body = bodies[0];
  const cases: Case[] = [];

  // Valid: no query, then every parameter the client may make up; each valid body.
  const fullQuery = Object.fromEntries(
    queryParameters
      .filter((parameter) => !SERVER_ISSUED.has(parameter.name))
      .map((parameter) => [parameter.name, asText(validValue(parameter.schema, parameter.name))]),
  );
  for (const [index, valid] of bodies.entries()) cases.push({ what: `valid body ${index + 1}`, valid: true, path, query: {}, body: valid });
  if (Object.keys(fullQuery).length > 0) cases.push({ what: `valid query ${JSON.stringify(fullQuery)}`, valid: true, path, query: fullQuery, body });
  for (const parameter of queryParameters) {
    if (SERVER_ISSUED.has(parameter.name)) continue;
    for (const edge of edges(parameter.schema, validValue(parameter.schema, parameter.name), `query ${parameter.name}`)) {
      if (edge.value !== null) cases.push({ what: edge.what, valid: true, path, query: { [parameter.name]: asText(edge.value) }, body });
    }
  }
  if (bodySchema) {
    for (const valid of bodies) {
      for (const edge of edges(bodySchema, valid, 'body')) cases.push({ what: edge.what, valid: true, path, query: {}, body: edge.value });
    }
  }

  // Just-invalid path parameters and query values (each alone), then bodies.
  for (const parameter of pathParameters) {
    for (const mutation of mutations(parameter.schema, path[parameter.name], `path ${parameter.name}`)) {
      const text = asText(mutation.value);
      if (text !== '' && !accepts(parameter.schema, text))
        cases.push({ what: mutation.what, valid: false, path: { ...path, [parameter.name]: text }, query: {}, body });
    }
  }
  for (const parameter of queryParameters) {
    const valid = SERVER_ISSUED.has(parameter.name) ? 'x' : asText(validValue(parameter.schema, parameter.name));
    for (const mutation of mutations(parameter.schema, queryValue(parameter.schema, valid), `query ${parameter.name}`)) {
      const text = asText(mutation.value);
      if (!accepts(parameter.schema, queryValue(parameter.schema, text)))
        cases.push({ what: mutation.what, valid: false, path, query: { [parameter.name]: text }, body });
    }
  }
  if (bodySchema) {
    for (const valid of bodies) {
      for (const mutation of mutations(bodySchema, valid, 'body')) {
        if (!accepts(bodySchema, mutation.value)) cases.push({ what: mutation.what, valid: false, path, query: {}, body: mutation.value });
      }
    }
  }
  for (const test of cases) {
    if (test.valid && bodySchema && !accepts(bodySchema, test.body))
      throw new Error(`${operation.operationId} ${test.what}: the generated body is not valid by the document`);
  }
  return cases;
}

const operationsOf = () =>
  Object.entries(document.paths).flatMap(([template, item]) =>
    (Object.entries(item) as [HttpVerb, OperationObject][]).map(([verb, operation]) => ({ method: verb.toUpperCase(), template, operation })),
  );

const urlOf = (template: string, path: Record<string, string>, query: Record<string, string>) => {
  const filled = template.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(path[name] ?? ''));
  const search = new URLSearchParams(query).toString();
  return search ? `${filled}?${search}` : filled;
};

describe('the server validates requests as the OpenAPI document says', () => {
  it.concurrent.each(operationsOf().map((entry) => [`${entry.method} ${entry.template}`, entry] as const))(
    '%s',
    async (_name, { method, template, operation }) => {
      const cases = casesOf(operation);
      // A fresh account per operation: its per-user rate limits and its session are its own.
      let cookies = operation.security.length > 0 ? await callerFor(method, template) : undefined;
      const stateful = STATEFUL_FIELDS[operation.operationId] ?? [];
      const disagreements: string[] = [];

      for (const test of cases) {
        const send = () =>
          call<{ type?: string; errors?: { field: string }[] }>(method, urlOf(template, test.path, test.query), {
            ...(cookies ? { cookies } : {}),
            ...(test.body === undefined ? {} : { body: test.body }),
          });
        let response = await send();
        // An operation with more cases than its per-user limit (the API key changes: 20 an hour) goes on as another account.
        if (response.status === 429 && cookies) {
          cookies = await callerFor(method, template);
          response = await send();
        }
        const validation = response.status === 400 && response.body.type === 'https://problems.backoffice.dev/validation';
        const sent = `${test.what}: ${method} ${urlOf(template, test.path, test.query)} ${JSON.stringify(test.body) ?? ''}`;
        if (test.valid && response.status === 400) {
          const fields = (response.body.errors ?? []).map((error) => error.field);
          if (!validation || fields.length === 0 || !fields.every((field) => stateful.includes(field)))
            disagreements.push(`valid, answered 400 ${JSON.stringify(response.body)} — ${sent}`);
        }
        if (!test.valid && !validation) disagreements.push(`invalid, answered ${response.status} ${JSON.stringify(response.body)} — ${sent}`);
      }

      expect(disagreements).toEqual([]);
      expect(cases.filter((test) => test.valid).length).toBeGreaterThan(0);
      if (operation.requestBody || operation.parameters?.some((parameter) => 'in' in parameter && parameter.in !== 'header')) {
        expect(cases.filter((test) => !test.valid).length).toBeGreaterThan(0);
      }
    },
    60_000,
  );
});
