import path from 'node:path';
import { Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Route, TableAccess } from '../../lib/routes';
import { repoRoot } from '../paths';

/** Memory per CPU profile. Lambda hands out CPU in proportion to memory. */
const MEMORY_MB = {
  /** bcrypt at cost 10 is ~100 ms of pure CPU; 1024 MB keeps login and registration snappy. */
  bcrypt: 1024,
  /** Everything else waits on DynamoDB, not on the CPU. */
  default: 256,
} as const;

/**
 * The ESM bundle has no `require`, but some CommonJS dependencies that esbuild inlines
 * still call it for Node built-ins. Define one from `createRequire`, under an alias so it
 * cannot clash with identifiers of the minified bundle.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __backofficeCreateRequire } from 'node:module'; const require = __backofficeCreateRequire(import.meta.url);";

export interface ServiceFunctionProps {
  /** Handler source file, relative to the repository root (as in the route manifest). */
  handler: string;
  description: string;
  /** `bcrypt` for functions that hash or compare passwords. */
  cpu?: Route['cpu'];
  environment: Record<string, string>;
  /** API Gateway gives up after 29 s; a function should fail well before that. */
  timeout?: Duration;
  logRetention: RetentionDays;
  /** What happens to the log group when the stack is deleted. */
  removalPolicy: RemovalPolicy;
}

/**
 * The house Lambda function: Node.js 22 on Graviton, an ESM bundle built by the local
 * esbuild (no Docker), JSON logs in a log group of its own with a retention, and memory
 * picked by CPU profile. Every function of the stack, the authorizer included, is one.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    // An explicit log group, so retention and removal are ours rather than "never expire".
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(repoRoot, props.handler),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.cpu === 'bcrypt' ? MEMORY_MB.bcrypt : MEMORY_MB.default,
      timeout: props.timeout ?? Duration.seconds(10),
      environment: props.environment,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: false,
        banner: ESM_REQUIRE_BANNER,
        tsconfig: path.join(repoRoot, 'tsconfig.json'),
        // Bundle the AWS SDK too instead of using the runtime's copy: the deployed code then
        // runs the exact SDK version that the tests ran against.
        externalModules: [],
      },
    });
  }
}

/**
 * Binds the table to a function the least-privilege way: the function learns the table's
 * name (TABLE_NAME) and gets exactly the access its manifest entry declares, no more.
 */
export function bindTable(fn: NodejsFunction, table: ITableV2, access: TableAccess): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  if (access === 'read') table.grantReadData(fn);
  else table.grantReadWriteData(fn);
}

/**
 * Lets a function count its rate limit (lib/rate-limit.ts): UpdateItem on the counter
 * items only, whose partition keys all start with `RATE#`. A read-only route that is rate
 * limited stays unable to write anything else.
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
 * Lets a function update the named attributes of existing items and nothing else (the
 * authorizer's once-a-minute `lastActiveAt`). The key attributes are named too, as
 * DynamoDB counts them among the attributes of the request.
 */
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

/**
 * Lets a function send e-mail as `mailFrom`: `ses:SendEmail` on that domain's SES identity
 * only. (While the SES account is in the sandbox, SES also checks the verified recipient
 * identities; grant those separately for testing rather than widening this statement.)
 */
export function grantSendMail(fn: NodejsFunction, mailFrom: string): void {
  const domain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1);
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [Stack.of(fn).formatArn({ service: 'ses', resource: 'identity', resourceName: domain })],
    }),
  );
}
