import path from 'node:path';
import { Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type AddToPrincipalPolicyResult, Effect, PolicyDocument, PolicyStatement, Role, type RoleProps, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, type CfnFunction, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CREDENTIALS_PK_PREFIX, SEARCH_PK_PATTERNS, WEBHOOK_SECRETS_PK_PREFIX } from '../../lib/db/keys';
import type { CredentialsAccess, Route, TableAccess, TableAction } from '../../lib/routes';
import {
  BUNDLE_ALIASES,
  BUNDLE_DROP_LABELS,
  BUNDLE_EXTERNAL_MODULES,
  BUNDLE_MAIN_FIELDS,
  BUNDLE_TARGET,
  BUNDLE_TSCONFIG,
  ESM_REQUIRE_BANNER,
} from '../bundling';
import { acknowledgeFunctionOutsideVpc, acknowledgeLogGroupFindings } from '../acknowledgments';
import { repoRoot } from '../paths';
import { serviceMetricsNamespace } from './observability';

/**
 * Memory per CPU profile. Lambda hands out CPU in proportion to memory, and at 1,769 MB a
 * function has the equivalent of one full vCPU (Lambda developer guide, "Memory and
 * computing power"). See docs/deploy.md, "Memory".
 */
export const MEMORY_MB = {
  /**
   * bcrypt (bcryptjs, pure JavaScript) at cost 10 is ~70-100 ms on one full vCPU; at 256 MB
   * (~1/7 vCPU) the same hash would take over half a second, on every login.
   */
  bcrypt: 1769,
  /**
   * The searching lists hold tenants in memory (about 50 MB per 100,000 suppliers) and load
   * a cold tenant's chunks within a second: CPU-bound work that a full vCPU does in time.
   */
  search: 1769,
  /** Everything else waits on DynamoDB, not on the CPU: the smallest size that stays fast. */
  default: 256,
} as const;

export interface ServiceFunctionProps {
  /** Handler source file, relative to the repository root (as in the route manifest). */
  handler: string;
  description: string;
  /** `bcrypt` for functions that hash or compare passwords, `search` for the searching lists. */
  cpu?: Route['cpu'];
  environment: Record<string, string>;
  /** API Gateway gives up after 29 s; a function should fail well before that. */
  timeout?: Duration;
  logRetention: RetentionDays;
  /** What happens to the log group when the stack is deleted. */
  removalPolicy: RemovalPolicy;
  /**
   * A log group the function shares with others (the route functions share one: a stack holds
   * at most 500 resources, and one log group per route was the cheapest to spare); else it gets
   * one of its own. Either way its role may write to that log group only.
   */
  logGroup?: LogGroup;
}

/**
 * A role whose grants are written in the role itself (one inline policy, `Access`) rather
 * than in an AWS::IAM::Policy of their own: the same permissions and the same IAM size quota
 * (both are a role's inline policies), one CloudFormation resource fewer per function. A stack
 * holds at most 500 resources, and each route is a function (docs/decisions.md, "Least
 * privilege per function").
 */
export class InlinePolicyRole extends Role {
  private readonly access: PolicyDocument;

  constructor(scope: Construct, id: string, props: RoleProps) {
    const access = new PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, Access: access } });
    this.access = access;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.access.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

/**
 * The house Lambda function: Node.js 22 on Graviton, an ESM bundle built by the local
 * esbuild (no Docker), JSON logs in a log group with a retention (its own, or one it shares), memory picked
 * by CPU profile, X-Ray active tracing, the stack's metrics namespace (lib/metrics.ts), and a
 * role of its own that may write to that log group (and trace segments) and nothing else
 * until the function is bound to what it uses. Every function of the stack is one.
 *
 * Tracing is active without in-process instrumentation: Lambda records each invocation's
 * segment (init, invocation, overhead), and API Gateway's trace links to it. Powertools
 * Tracer would add a subsegment per DynamoDB call, but measured (`npm run bench -- tracing`)
 * it adds about 120 KB and 20 ms of cold load to every function, which would put the
 * authorizer at +26 ms against its +10 ms budget (docs/decisions.md, "Tracing").
 *
 * The function's CloudFormation logical id is the construct id (`LoginFunction`), so that
 * `sam local invoke LoginFunction` and the alarms read plainly and stay stable.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    // An explicit log group, so retention and removal are ours rather than "never expire".
    this.logGroup =
      props.logGroup ??
      new LogGroup(this, 'Logs', {
        retention: props.logRetention,
        removalPolicy: props.removalPolicy,
      });

    // Instead of the AWSLambdaBasicExecutionRole managed policy (log writes to every log
    // group of the account), the role may write to this function's log group only.
    this.role = new InlinePolicyRole(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${id}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(repoRoot, props.handler),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.cpu === undefined ? MEMORY_MB.default : MEMORY_MB[props.cpu],
      timeout: props.timeout ?? Duration.seconds(10),
      environment: { ...props.environment, POWERTOOLS_METRICS_NAMESPACE: serviceMetricsNamespace(Stack.of(this)) },
      tracing: Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLE_TARGET,
        mainFields: BUNDLE_MAIN_FIELDS,
        minify: true,
        sourceMap: false,
        banner: ESM_REQUIRE_BANNER,
        tsconfig: BUNDLE_TSCONFIG,
        // The AWS SDK is bundled, with the credential chain cut to the environment (see
        // infra/bundling.ts): nothing external, and the same aliases as LAMBDA_ESBUILD.
        bundleAwsSDK: true,
        externalModules: BUNDLE_EXTERNAL_MODULES,
        // esbuild's warnings and errors only: not a size table and a "Done" line per function.
        logLevel: LogLevel.WARNING,
        esbuildArgs: {
          '--drop-labels': BUNDLE_DROP_LABELS.join(','),
          '--alias': Object.entries(BUNDLE_ALIASES).map(([from, to]) => `${from}=${to}`),
        },
      },
    });
    (this.function.node.defaultChild as CfnFunction).overrideLogicalId(id);

    if (!props.logGroup) acknowledgeLogGroupFindings(this.logGroup);
    acknowledgeFunctionOutsideVpc(this.function);
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "Active tracing's grant: xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray authorizes on '*' only (it has no resource-level permissions). The stack test allows '*' for exactly those two actions, so no other wildcard resource can hide behind this.",
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is deliberate: it is a supported Lambda runtime (deprecation scheduled for 2027), the esbuild target and the Node line the tests run on; moving to Node.js 24 is a tested change of its own, not a side effect of a new CDK release.',
    });
  }
}

/** `GetItem` → `dynamodb:GetItem`: the manifest names DynamoDB actions without their service prefix. */
export const dynamodbAction = (action: TableAction): `dynamodb:${TableAction}` => `dynamodb:${action}`;

/** The actions that read items, refused on the credentials partition to a function that may only write there. */
export const CREDENTIALS_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
/** The actions that write items, refused on the credentials partition to a function that may only read there. */
export const CREDENTIALS_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;

/**
 * What a function is refused on the credentials partition, by the access its manifest entry
 * declares: every DynamoDB action without a declaration, the other half with `read` or
 * `write`, nothing with `read-write`.
 */
export function credentialsDeniedActions(access: CredentialsAccess | undefined): readonly string[] {
  switch (access) {
    case undefined:
      return ['dynamodb:*'];
    case 'read':
      return CREDENTIALS_WRITE_ACTIONS;
    case 'write':
      return CREDENTIALS_READ_ACTIONS;
    case 'read-write':
      return [];
  }
}

/** The condition of the credentials Deny: any partition key of the request in the credentials partition. */
export const CREDENTIALS_CONDITION = { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`${CREDENTIALS_PK_PREFIX}*`] } } as const;
/** The same for the webhook signing secrets' partition. */
export const WEBHOOK_SECRETS_CONDITION = { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`${WEBHOOK_SECRETS_PK_PREFIX}*`] } } as const;

/**
 * Binds the table to a function the least-privilege way: the function learns the table's
 * name (TABLE_NAME) and gets exactly the access its manifest entry declares
 * (lib/routes/types.ts, `TableAccess`), no more:
 * - its actions on the table, and nothing else (a function that declares none, GET
 *   /auth/me, gets no table grant at all);
 * - Query on each index it declares, by name (no `index/*` wildcard), and on no index when
 *   it declares none;
 * - an explicit Deny on the credentials partition (`CREDENTIALS#*`) of what its declared
 *   credentials access leaves out. A Deny with `ForAnyValue`, not Allows conditioned on the
 *   other partitions: one BatchGetItem may ask for a user item and its credentials item
 *   together, and a Deny refuses the whole call as soon as one of its keys is there. On the
 *   table only: a credentials item has no index keys, so no index holds it.
 * - the same Deny on the webhook signing secrets' partition (`WEBHOOK_SECRETS#*`) by its
 *   declared `webhookSecrets` access: only the functions that make, rotate, delete or sign
 *   with a secret reach it.
 */
export function bindTable(fn: NodejsFunction, table: ITableV2, access: TableAccess): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  if (access.actions.length > 0) {
    fn.addToRolePolicy(new PolicyStatement({ actions: access.actions.map(dynamodbAction), resources: [table.tableArn] }));
  }
  if (access.indexes?.length) {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: access.indexes.map((index) => `${table.tableArn}/index/${index}`) }));
  }
  const denied = credentialsDeniedActions(access.credentials);
  if (denied.length > 0) {
    fn.addToRolePolicy(
      new PolicyStatement({
        sid: 'DenyCredentials',
        effect: Effect.DENY,
        actions: [...denied],
        resources: [table.tableArn],
        conditions: CREDENTIALS_CONDITION,
      }),
    );
  }
  const deniedSecrets = credentialsDeniedActions(access.webhookSecrets);
  if (deniedSecrets.length > 0) {
    fn.addToRolePolicy(
      new PolicyStatement({
        sid: 'DenyWebhookSecrets',
        effect: Effect.DENY,
        actions: [...deniedSecrets],
        resources: [table.tableArn],
        conditions: WEBHOOK_SECRETS_CONDITION,
      }),
    );
  }
}

/**
 * Lets a function count its rate limit (lib/rate-limit.ts): UpdateItem on the counter
 * items only, whose partition keys all start with `RATE#`. A route that declares no
 * UpdateItem of its own stays unable to update anything else.
 */
export function grantRateLimitCounters(fn: NodejsFunction, table: ITableV2): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
    }),
  );
}

/**
 * Lets a searching function fold its list's log into chunks (lib/search/engine): PutItem
 * and BatchWriteItem on the search partitions only (`SEARCH_PK_PATTERNS`), so a list
 * function that reads the tenant's records can write nothing of them.
 */
export function grantSearchFolds(fn: NodejsFunction, table: ITableV2): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['dynamodb:PutItem', 'dynamodb:BatchWriteItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...SEARCH_PK_PATTERNS] } },
    }),
  );
}

/**
 * Lets a function update the named attributes of existing items and nothing else (the
 * authorizer's once-a-minute `lastActiveAt`). The key attributes are named too, as
 * DynamoDB counts them among the attributes of the request.
 */
/**
 * UpdateItem of these attributes only, on items whose partition key matches `partitions` (a
 * StringLike pattern) only: a write that may set an attribute as strong as `ttl` reaches no
 * other item.
 */
export function grantPartitionAttributeUpdates(fn: NodejsFunction, table: ITableV2, grant: { partitions: string; attributes: readonly string[] }): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', ...grant.attributes] },
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [grant.partitions] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      },
    }),
  );
}

export function grantAttributeUpdates(fn: NodejsFunction, table: ITableV2, attributes: readonly string[]): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', ...attributes] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      },
    }),
  );
}
