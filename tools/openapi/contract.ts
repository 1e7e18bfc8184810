import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema, OpenApiDocument, OperationObject, ReferenceObject, ResponseObject } from './types';

/**
 * Contract checks: does a response the API really gave match what the OpenAPI document says
 * for that route and status? The integration tests run every response through this, so the
 * document cannot drift from the code. Responses of no route (an unknown path or method,
 * answered by the gateway) must be problem documents.
 *
 * Schemas are compiled with Ajv's JSON Schema 2020-12 dialect, the one OpenAPI 3.1 uses.
 */

/** A response as the client saw it. `body` is undefined when the response had none. */
export interface ObservedResponse {
  method: string;
  /** The request path without the query string. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

const COMPONENTS_ID = 'urn:backoffice:openapi:components';
const SCHEMA_REF = '#/components/schemas/';
const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const JSON_CONTENT_TYPE = 'application/json';

/**
 * Point the document's `#/components/schemas/X` references at the components Ajv knows. A
 * `discriminator` loses its `mapping`, which Ajv does not read: it finds the branch by the
 * `const` each one gives the property.
 */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'discriminator' && child !== null && typeof child === 'object' && 'propertyName' in child) {
      result[key] = { propertyName: (child as { propertyName: unknown }).propertyName };
      continue;
    }
    result[key] =
      key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)
        ? `${COMPONENTS_ID}#/$defs/${child.slice(SCHEMA_REF.length)}`
        : rewriteRefs(child);
  }
  return result;
}

interface PathMatcher {
  template: string;
  pattern: RegExp;
}

/** `/companies/{id}` matches `/companies/<anything but a slash>`, as API Gateway matches it. */
function matcher(template: string): PathMatcher {
  const source = template
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { template, pattern: new RegExp(`^${source}$`) };
}

const isReference = (value: ResponseObject | ReferenceObject): value is ReferenceObject => '$ref' in value;

const mediaType = (contentType: string | null) => contentType?.split(';')[0]?.trim().toLowerCase();

const preview = (body: unknown) => {
  const text = JSON.stringify(body);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

export interface ContractValidator {
  /** Undefined when the response matches the document; else why not, for a test failure. */
  check(response: ObservedResponse): string | undefined;
  /** The same for a JSON request body against the operation's documented request body. */
  checkRequestBody(method: string, path: string, body: unknown): string | undefined;
  /** Compile every response schema of the document (a schema Ajv cannot compile throws). */
  compileAll(): void;
}

export function createContractValidator(document: OpenApiDocument): ContractValidator {
  // `discriminator`: OpenAPI's keyword on the unions of request shapes (the movement types).
  // `strictRequired` off: "exactly one of" is `oneOf: [{ required: [a] }, { required: [b] }]`,
  // whose branches name properties their parent defines.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true, discriminator: true });
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(document.components.schemas) as Record<string, JsonSchema> });

  const matchers = Object.keys(document.paths).map(matcher);
  const compiled = new Map<string, ValidateFunction>();

  const validatorFor = (key: string, schema: JsonSchema): ValidateFunction => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rewriteRefs(schema) as JsonSchema);
      compiled.set(key, validate);
    }
    return validate;
  };

  const resolve = (response: ResponseObject | ReferenceObject): ResponseObject => {
    if (!isReference(response)) return response;
    const name = response.$ref.replace('#/components/responses/', '');
    const target = document.components.responses[name];
    if (!target) throw new Error(`The document has no response component ${response.$ref}`);
    return target;
  };

  const operationOf = (method: string, path: string): OperationObject | undefined => {
    const verb = method.toLowerCase() as keyof (typeof document.paths)[string];
    for (const { template, pattern } of matchers) {
      const operation = pattern.test(path) ? document.paths[template]?.[verb] : undefined;
      if (operation) return operation;
    }
    return undefined;
  };

  const validateBody = (key: string, schema: JsonSchema, observed: ObservedResponse, what: string): string | undefined => {
    const validate = validatorFor(key, schema);
    if (validate(observed.body)) return undefined;
    return `${what}: the body does not match the OpenAPI document: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}\nbody: ${preview(observed.body)}`;
  };

  return {
    check(observed) {
      const method = observed.method.toUpperCase();
      const what = `${method} ${observed.path} answered ${observed.status}`;
      const operation = operationOf(method, observed.path);

      if (!operation) {
        // No route: the gateway answered (unknown path or method, a preflight). A body, if
        // any, is a problem document with the response's status.
        if (observed.body === undefined) return undefined;
        if (mediaType(observed.contentType) !== PROBLEM_CONTENT_TYPE) return `${what} with Content-Type ${observed.contentType}, not ${PROBLEM_CONTENT_TYPE}`;
        const schema = { allOf: [{ $ref: `${SCHEMA_REF}Problem` }, { type: 'object', properties: { status: { const: observed.status } } }] };
        return validateBody(`gateway ${observed.status}`, schema, observed, `${what} (no route)`);
      }

      const documented = operation.responses[String(observed.status)];
      if (!documented) {
        return `${what}, a status the OpenAPI document does not list for ${operation.operationId} (it lists ${Object.keys(operation.responses).join(', ')})`;
      }
      const response = resolve(documented);
      if (!response.content) return observed.body === undefined ? undefined : `${what} with a body, but the document says it has none`;
      if (observed.body === undefined) return `${what} with no body; the document says ${Object.keys(response.content).join(' or ')}`;
      const type = mediaType(observed.contentType);
      const media = type === undefined ? undefined : response.content[type];
      if (!media) return `${what} with Content-Type ${observed.contentType}; the document says ${Object.keys(response.content).join(' or ')}`;
      return validateBody(`${operation.operationId} ${observed.status} ${type}`, media.schema, observed, `${what} (${operation.operationId})`);
    },

    checkRequestBody(method, path, body) {
      const operation = operationOf(method.toUpperCase(), path);
      const media = operation?.requestBody?.content[JSON_CONTENT_TYPE];
      if (!operation || !media) return `${method} ${path} takes no JSON body in the OpenAPI document`;
      const validate = validatorFor(`${operation.operationId} request`, media.schema);
      return validate(body) ? undefined : `${operation.operationId} request: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`;
    },

    compileAll() {
      for (const item of Object.values(document.paths)) {
        for (const operation of Object.values<OperationObject>(item)) {
          for (const [status, documented] of Object.entries(operation.responses)) {
            for (const [type, media] of Object.entries(resolve(documented).content ?? {})) {
              validatorFor(`${operation.operationId} ${status} ${type}`, media.schema);
            }
          }
        }
      }
    },
  };
}
