/**
 * A pure IAM evaluator for the DynamoDB calls of one function: the statements its role's
 * identity-based policies hold (as the template gives them, intrinsics resolved to the local
 * ARNs) against a DynamoDB JSON-protocol request (operation name and body).
 *
 * Evaluated, as IAM does for identity-based policies:
 * - Effect Allow / Deny, an explicit Deny winning over any Allow, nothing allowed by default;
 * - Action and NotAction (case-insensitive, `*` and `?` wildcards), Resource and NotResource
 *   (case-sensitive, `*` and `?` wildcards);
 * - Condition blocks: every operator and every key must hold (AND), any of a key's policy
 *   values may match (OR); operators StringEquals, StringNotEquals, StringEqualsIgnoreCase,
 *   StringNotEqualsIgnoreCase, StringLike, StringNotLike, Bool and Null, with the
 *   `ForAllValues:` / `ForAnyValue:` set prefixes and the `IfExists` suffix; a missing key
 *   fails a positive operator, passes a negated one, passes `ForAllValues:` (the classic trap,
 *   as AWS) and fails `ForAnyValue:`;
 * - the request context DynamoDB builds: action `dynamodb:<Operation>`; resource the table
 *   ARN, or `<table ARN>/index/<IndexName>` for Query and Scan on an index; one check per
 *   item of TransactWriteItems (Put → PutItem, Update → UpdateItem, Delete → DeleteItem,
 *   ConditionCheck → ConditionCheckItem) and TransactGetItems (GetItem); one check per table
 *   of BatchGetItem / BatchWriteItem (the batch actions); condition keys
 *   `dynamodb:LeadingKeys` (the partition key values the request touches, for Query the
 *   value its key condition compares the partition key with), `dynamodb:Attributes` (the
 *   top-level attribute names of the request: key attributes, the item's attributes for a
 *   put, and every name in its expressions or legacy parameters), `dynamodb:ReturnValues`,
 *   `dynamodb:ReturnConsumedCapacity` and `dynamodb:Select` when the request sets them.
 *
 * NOT evaluated (a statement relying on them does not behave as on AWS):
 * - policy variables (`${aws:username}`…) are compared literally;
 * - `aws:*` global condition keys (aws:SourceIp, aws:PrincipalTag, aws:SecureTransport…) and
 *   any key other than the DynamoDB ones above are absent from the context;
 * - Numeric*, Date*, IpAddress, Arn*, BinaryEquals operators: a condition using them never
 *   holds (an Allow relying on one does not apply; a Deny relying on one does not apply either);
 * - service control and resource control policies, resource-based policies (table resource
 *   policies), permission boundaries, session policies, AWS managed policies named by ARN
 *   (ManagedPolicyArns: their documents are not in the template);
 * - PartiQL (ExecuteStatement and friends) beyond the action on `*`; streams; KMS grants.
 */

export type ConditionValue = string | number | boolean | readonly (string | number | boolean)[];

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | readonly string[];
  NotAction?: string | readonly string[];
  Resource?: string | readonly string[];
  NotResource?: string | readonly string[];
  Condition?: Record<string, Record<string, ConditionValue>>;
}

/** One authorization check: IAM's request context for one action on one resource. */
export interface AuthorizationRequest {
  action: string;
  resource: string;
  /** Condition keys present in the request (names as AWS spells them), each a set of values. */
  context: Record<string, readonly string[]>;
}

/** A condition of a statement that did not hold for the request. */
export interface FailedCondition {
  operator: string;
  key: string;
  policyValues: readonly string[];
  /** The request's values for the key; undefined when the request has none. */
  requestValues: readonly string[] | undefined;
}

export type Decision =
  | { allowed: true; request: AuthorizationRequest; statement: number }
  | {
      allowed: false;
      request: AuthorizationRequest;
      /** `explicit`: a Deny statement applies; `implicit`: no Allow statement does. */
      deny: 'explicit' | 'implicit';
      /** The applying Deny statement (explicit), by index. */
      statement?: number;
      /**
       * Allow statements that name the action and the resource but whose condition failed
       * (implicit deny): the grant that is "almost" there.
       */
      nearMisses: { statement: number; failed: FailedCondition }[];
      /** One line: the grant that is missing. */
      missing: string;
    };

const asList = (value: string | readonly string[] | undefined): readonly string[] | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? [value] : value;

function glob(pattern: string, flags = ''): RegExp {
  const source = pattern
    .replace(/[.+^$()|[\]\\{}]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, `s${flags}`);
}

const actionMatches = (pattern: string, action: string) => glob(pattern, 'i').test(action);
const resourceMatches = (pattern: string, resource: string) => glob(pattern).test(resource);

function appliesTo(statement: PolicyStatement, request: AuthorizationRequest): boolean {
  const actions = asList(statement.Action);
  const notActions = asList(statement.NotAction);
  if (actions && !actions.some((pattern) => actionMatches(pattern, request.action))) return false;
  if (notActions && notActions.some((pattern) => actionMatches(pattern, request.action))) return false;
  if (!actions && !notActions) return false;
  const resources = asList(statement.Resource);
  const notResources = asList(statement.NotResource);
  if (resources && !resources.some((pattern) => resourceMatches(pattern, request.resource))) return false;
  if (notResources && notResources.some((pattern) => resourceMatches(pattern, request.resource))) return false;
  return Boolean(resources ?? notResources);
}

type Comparator = (requestValue: string, policyValue: string) => boolean;

const COMPARATORS: Record<string, { compare: Comparator; negated: boolean }> = {
  stringequals: { compare: (a, b) => a === b, negated: false },
  stringnotequals: { compare: (a, b) => a === b, negated: true },
  stringequalsignorecase: { compare: (a, b) => a.toLowerCase() === b.toLowerCase(), negated: false },
  stringnotequalsignorecase: { compare: (a, b) => a.toLowerCase() === b.toLowerCase(), negated: true },
  stringlike: { compare: (a, b) => glob(b).test(a), negated: false },
  stringnotlike: { compare: (a, b) => glob(b).test(a), negated: true },
  bool: { compare: (a, b) => a.toLowerCase() === b.toLowerCase(), negated: false },
};

function lookup(context: AuthorizationRequest['context'], key: string): readonly string[] | undefined {
  const wanted = key.toLowerCase();
  const found = Object.keys(context).find((name) => name.toLowerCase() === wanted);
  return found === undefined ? undefined : context[found];
}

/** Does one operator-key pair of a Condition block hold for the request? */
export function conditionHolds(operator: string, key: string, policyValues: readonly string[], context: AuthorizationRequest['context']): boolean {
  let rest = operator;
  let set: 'all' | 'any' | undefined;
  if (/^forallvalues:/i.test(rest)) {
    set = 'all';
    rest = rest.slice('ForAllValues:'.length);
  } else if (/^foranyvalue:/i.test(rest)) {
    set = 'any';
    rest = rest.slice('ForAnyValue:'.length);
  }
  const ifExists = /ifexists$/i.test(rest);
  if (ifExists) rest = rest.slice(0, -'IfExists'.length);
  const values = lookup(context, key);
  const present = values !== undefined && values.length > 0;

  if (rest.toLowerCase() === 'null') {
    // Null: "true" means the key must be absent.
    return policyValues.some((value) => (value.toLowerCase() === 'true') === !present);
  }
  const comparator = COMPARATORS[rest.toLowerCase()];
  if (!comparator) return false; // not evaluated: see the module comment
  const matchesAny = (value: string) => policyValues.some((policyValue) => comparator.compare(value, policyValue));
  // A negated operator holds where its positive twin does not match.
  const matches = (value: string) => (comparator.negated ? !matchesAny(value) : matchesAny(value));

  if (set === 'all') return !present || values.every(matches);
  if (set === 'any') return present ? values.some(matches) : ifExists;
  if (!present) return ifExists || comparator.negated;
  return comparator.negated ? values.every(matches) : values.some(matches);
}

/** The first condition of the statement that fails for the request, if any. */
function failedCondition(statement: PolicyStatement, request: AuthorizationRequest): FailedCondition | undefined {
  for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
    for (const [key, raw] of Object.entries(keys)) {
      const policyValues = (Array.isArray(raw) ? raw : [raw]).map(String);
      if (!conditionHolds(operator, key, policyValues, request.context)) {
        return { operator, key, policyValues, requestValues: lookup(request.context, key) };
      }
    }
  }
  return undefined;
}

const describeCondition = (failed: FailedCondition) =>
  `${failed.operator} ${failed.key} ${JSON.stringify(failed.policyValues)} does not hold for ${failed.requestValues === undefined ? 'a request without that key' : JSON.stringify(failed.requestValues)}`;

/** IAM's decision for one request against identity-based policy statements. */
export function evaluate(statements: readonly PolicyStatement[], request: AuthorizationRequest): Decision {
  let allowedBy: number | undefined;
  const nearMisses: { statement: number; failed: FailedCondition }[] = [];
  for (const [index, statement] of statements.entries()) {
    if (!appliesTo(statement, request)) continue;
    const failed = failedCondition(statement, request);
    if (statement.Effect === 'Deny') {
      if (!failed) {
        return {
          allowed: false,
          request,
          deny: 'explicit',
          statement: index,
          nearMisses: [],
          missing: `${request.action} on ${request.resource} is explicitly denied by statement ${statement.Sid ?? index}`,
        };
      }
      continue;
    }
    if (!failed) allowedBy ??= index;
    else nearMisses.push({ statement: index, failed });
  }
  if (allowedBy !== undefined) return { allowed: true, request, statement: allowedBy };
  const near = nearMisses[0];
  const missing = near
    ? `${request.action} on ${request.resource}: statement ${statements[near.statement]?.Sid ?? near.statement} grants it, but its condition ${describeCondition(near.failed)}`
    : `${request.action} on ${request.resource}: no statement grants it`;
  return { allowed: false, request, deny: 'implicit', nearMisses, missing };
}

// --- The request context of a DynamoDB call ---------------------------------------------

type AttributeValue = Record<string, unknown>;
type Item = Record<string, AttributeValue>;
type Body = Record<string, unknown>;

/** The key attributes of a table and of its indexes, which LeadingKeys needs. */
export interface TableKeys {
  partitionKey: string;
  sortKey?: string;
  indexes: Record<string, { partitionKey: string; sortKey?: string }>;
}

export interface DynamoContextOptions {
  /** The ARN of a table, by name. */
  tableArn: (tableName: string) => string;
  /** The key schema of a table, by name (undefined: unknown table, no LeadingKeys). */
  keys: (tableName: string) => TableKeys | undefined;
}

/** An attribute value as IAM compares it: the scalar's text. */
function scalarText(value: AttributeValue | undefined): string | undefined {
  if (!value) return undefined;
  for (const type of ['S', 'N', 'B']) {
    const scalar = value[type];
    if (typeof scalar === 'string') return scalar;
  }
  return undefined;
}

const RESERVED_IN_EXPRESSIONS = new Set(['and', 'or', 'not', 'between', 'in', 'set', 'remove', 'add', 'delete']);

/**
 * The top-level attribute names an expression refers to: the first element of each document
 * path (`a.b[0]` → `a`), `#name` placeholders resolved, functions, keywords and `:values` left out.
 */
export function expressionAttributeNames(expression: string | undefined, names: Record<string, string> | undefined): string[] {
  if (!expression) return [];
  const found: string[] = [];
  const text = expression.replace(/:[A-Za-z0-9_]+/g, ' ');
  const token = /(#[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*)/g;
  for (let match = token.exec(text); match; match = token.exec(text)) {
    const name = match[1] as string;
    const before = text.slice(0, match.index).trimEnd();
    const after = text.slice(match.index + name.length).trimStart();
    if (before.endsWith('.')) continue; // a nested path element
    if (after.startsWith('(')) continue; // a function
    if (!name.startsWith('#') && RESERVED_IN_EXPRESSIONS.has(name.toLowerCase())) continue;
    found.push(name.startsWith('#') ? (names?.[name] ?? name) : name);
  }
  return found;
}

/** The attribute names of one item-level request (a single operation or a transaction item). */
function requestAttributes(request: Body, key: Item | undefined): string[] {
  const names = request.ExpressionAttributeNames as Record<string, string> | undefined;
  const attributes = [
    ...Object.keys(key ?? {}),
    ...Object.keys((request.Item as Item | undefined) ?? {}),
    ...Object.keys((request.AttributeUpdates as Body | undefined) ?? {}),
    ...Object.keys((request.Expected as Body | undefined) ?? {}),
    ...Object.keys((request.KeyConditions as Body | undefined) ?? {}),
    ...Object.keys((request.QueryFilter as Body | undefined) ?? {}),
    ...Object.keys((request.ScanFilter as Body | undefined) ?? {}),
    ...((request.AttributesToGet as string[] | undefined) ?? []),
    ...['UpdateExpression', 'ConditionExpression', 'ProjectionExpression', 'FilterExpression', 'KeyConditionExpression'].flatMap((field) =>
      expressionAttributeNames(request[field] as string | undefined, names),
    ),
  ];
  return [...new Set(attributes)];
}

/** The optional parameters that are condition keys, when the request sets them. */
function parameterKeys(request: Body): Record<string, string[]> {
  const context: Record<string, string[]> = {};
  for (const parameter of ['ReturnValues', 'ReturnConsumedCapacity', 'Select'] as const) {
    const value = request[parameter];
    if (typeof value === 'string') context[`dynamodb:${parameter}`] = [value];
  }
  return context;
}

function itemContext(request: Body, key: Item | undefined, partitionKey: string | undefined): Record<string, readonly string[]> {
  const leading = partitionKey ? scalarText(key?.[partitionKey]) : undefined;
  const attributes = requestAttributes(request, key);
  return {
    ...(leading !== undefined ? { 'dynamodb:LeadingKeys': [leading] } : {}),
    ...(attributes.length ? { 'dynamodb:Attributes': attributes } : {}),
    ...parameterKeys(request),
  };
}

/** The partition key value a Query's key condition compares with `=`. */
function queryLeadingKey(request: Body, partitionKey: string): string | undefined {
  const names = request.ExpressionAttributeNames as Record<string, string> | undefined;
  const values = request.ExpressionAttributeValues as Item | undefined;
  const expression = request.KeyConditionExpression as string | undefined;
  if (expression) {
    const comparison = /(#?[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(:[A-Za-z0-9_]+)|(:[A-Za-z0-9_]+)\s*=\s*(#?[A-Za-z_][A-Za-z0-9_]*)/g;
    for (let match = comparison.exec(expression); match; match = comparison.exec(expression)) {
      const nameToken = (match[1] ?? match[4]) as string;
      const valueToken = (match[2] ?? match[3]) as string;
      const name = nameToken.startsWith('#') ? names?.[nameToken] : nameToken;
      if (name === partitionKey) return scalarText(values?.[valueToken]);
    }
  }
  const legacy = (request.KeyConditions as Record<string, { AttributeValueList?: AttributeValue[] }> | undefined)?.[partitionKey];
  return scalarText(legacy?.AttributeValueList?.[0]);
}

const TRANSACT_WRITE_ACTIONS = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' } as const;

/**
 * The authorization checks DynamoDB makes for one API call: every one must be allowed.
 * Unknown operations are one check of `dynamodb:<Operation>` on the named table, or on `*`.
 */
export function dynamoAuthorizationRequests(operation: string, body: Body, options: DynamoContextOptions): AuthorizationRequest[] {
  const table = (name: unknown) => (typeof name === 'string' ? name : '');
  const single = (action: string, request: Body, key: Item | undefined): AuthorizationRequest => {
    const name = table(request.TableName);
    return { action: `dynamodb:${action}`, resource: options.tableArn(name), context: itemContext(request, key, options.keys(name)?.partitionKey) };
  };

  switch (operation) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [single(operation, body, body.Key as Item | undefined)];
    case 'PutItem':
      return [single(operation, body, body.Item as Item | undefined)];
    case 'Query':
    case 'Scan': {
      const name = table(body.TableName);
      const index = typeof body.IndexName === 'string' ? body.IndexName : undefined;
      const keys = options.keys(name);
      const partitionKey = index ? keys?.indexes[index]?.partitionKey : keys?.partitionKey;
      const leading = operation === 'Query' && partitionKey ? queryLeadingKey(body, partitionKey) : undefined;
      const attributes = requestAttributes(body, undefined);
      return [
        {
          action: `dynamodb:${operation}`,
          resource: index ? `${options.tableArn(name)}/index/${index}` : options.tableArn(name),
          context: {
            ...(leading !== undefined ? { 'dynamodb:LeadingKeys': [leading] } : {}),
            ...(attributes.length ? { 'dynamodb:Attributes': attributes } : {}),
            ...parameterKeys(body),
          },
        },
      ];
    }
    case 'BatchGetItem':
    case 'BatchWriteItem': {
      const requestItems = (body.RequestItems ?? {}) as Record<string, unknown>;
      return Object.entries(requestItems).map(([name, entry]) => {
        const partitionKey = options.keys(name)?.partitionKey;
        const items: { request: Body; key: Item | undefined }[] =
          operation === 'BatchGetItem'
            ? (((entry as Body).Keys as Item[] | undefined) ?? []).map((key) => ({ request: entry as Body, key }))
            : (entry as Body[]).map((write) => {
                const put = write.PutRequest as { Item?: Item } | undefined;
                const remove = write.DeleteRequest as { Key?: Item } | undefined;
                return { request: put ? { Item: put.Item } : {}, key: put ? put.Item : remove?.Key };
              });
        const leading = new Set<string>();
        const attributes = new Set<string>();
        for (const { request, key } of items) {
          const value = partitionKey ? scalarText(key?.[partitionKey]) : undefined;
          if (value !== undefined) leading.add(value);
          for (const attribute of requestAttributes(request, key)) attributes.add(attribute);
        }
        return {
          action: `dynamodb:${operation}`,
          resource: options.tableArn(name),
          context: {
            ...(leading.size ? { 'dynamodb:LeadingKeys': [...leading] } : {}),
            ...(attributes.size ? { 'dynamodb:Attributes': [...attributes] } : {}),
            ...parameterKeys(body),
          },
        };
      });
    }
    case 'TransactGetItems':
      return ((body.TransactItems ?? []) as { Get?: Body }[]).flatMap((item) =>
        item.Get ? [single('GetItem', item.Get, item.Get.Key as Item | undefined)] : [],
      );
    case 'TransactWriteItems':
      return ((body.TransactItems ?? []) as Record<string, Body>[]).flatMap((item) =>
        (Object.keys(TRANSACT_WRITE_ACTIONS) as (keyof typeof TRANSACT_WRITE_ACTIONS)[])
          .filter((kind) => item[kind])
          .map((kind) => {
            const request = item[kind] as Body;
            return single(TRANSACT_WRITE_ACTIONS[kind], request, (kind === 'Put' ? request.Item : request.Key) as Item | undefined);
          }),
      );
    default:
      return [
        {
          action: `dynamodb:${operation}`,
          resource: typeof body.TableName === 'string' ? options.tableArn(body.TableName) : '*',
          context: parameterKeys(body),
        },
      ];
  }
}

/** The decision on a whole DynamoDB call: allowed when every check is; else the first denial. */
export function authorizeDynamoCall(statements: readonly PolicyStatement[], operation: string, body: Body, options: DynamoContextOptions): Decision {
  const requests = dynamoAuthorizationRequests(operation, body, options);
  let last: Decision | undefined;
  for (const request of requests) {
    last = evaluate(statements, request);
    if (!last.allowed) return last;
  }
  return last ?? evaluate(statements, { action: `dynamodb:${operation}`, resource: '*', context: {} });
}
