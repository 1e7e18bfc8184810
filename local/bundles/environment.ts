import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scalarText, type AssemblyFunction, type CloudAssembly, type Template, type TemplateValue } from './assembly';
import { evaluate, type DynamoContextOptions, type PolicyStatement } from './iam';

/**
 * A function's template environment, resolved for the local store, and its policy statements
 * with the same local ARNs. The template's values are kept as they are (settings, origins,
 * issuer, audience, path prefix…): only what points at an AWS resource is mapped to its
 * local stand-in, and a variable the template lacks stays missing, so a function that reads
 * a variable its template does not set fails here as it would on AWS.
 */

/** The account of every local ARN (DynamoDB Local's own ARNs use it too). */
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';
/** A loopback port nothing listens on: any AWS call but DynamoDB fails at once instead of reaching AWS. */
const UNREACHABLE_ENDPOINT = 'http://127.0.0.1:9';

/** What the template's resources become locally. */
export interface LocalWorld {
  region: string;
  accountId: string;
  /** The local table every AWS::DynamoDB table of the template maps to. */
  tableName: string;
  stackName: string;
}

export const tableArnOf = (world: Pick<LocalWorld, 'region' | 'accountId'>, tableName: string): string =>
  `arn:aws:dynamodb:${world.region}:${world.accountId}:table/${tableName}`;

const TABLE_TYPES = new Set(['AWS::DynamoDB::Table', 'AWS::DynamoDB::GlobalTable']);

/** A resource's physical id locally (its `Ref`). */
function physicalId(template: Template, world: LocalWorld, logicalId: string): string {
  const type = template.Resources[logicalId]?.Type ?? '';
  if (TABLE_TYPES.has(type)) return world.tableName;
  if (type === 'AWS::SecretsManager::Secret') return `arn:aws:secretsmanager:${world.region}:${world.accountId}:secret:${logicalId}`;
  if (type === 'AWS::IAM::Role' || type === 'AWS::Lambda::Function') return `${world.stackName}-${logicalId}`;
  // A queue's Ref is its URL (no SQS here: a call to it fails at the unreachable endpoint).
  if (type === 'AWS::SQS::Queue') return `https://sqs.${world.region}.amazonaws.com/${world.accountId}/${logicalId}`;
  return logicalId;
}

/** A resource's attribute locally (`Fn::GetAtt`): ARNs in the local account and region. */
function attribute(template: Template, world: LocalWorld, logicalId: string, name: string): string {
  const type = template.Resources[logicalId]?.Type ?? '';
  const { region, accountId } = world;
  if (TABLE_TYPES.has(type) && name === 'Arn') return tableArnOf(world, world.tableName);
  if (TABLE_TYPES.has(type) && name === 'StreamArn') return `${tableArnOf(world, world.tableName)}/stream/local`;
  if (name !== 'Arn') return `${logicalId}.${name}`;
  const [, service = 'unknown', kind = 'resource'] = /^AWS::([^:]+)::(.+)$/.exec(type) ?? [];
  if (type === 'AWS::Logs::LogGroup') return `arn:aws:logs:${region}:${accountId}:log-group:${logicalId}:*`;
  if (type === 'AWS::IAM::Role') return `arn:aws:iam::${accountId}:role/${physicalId(template, world, logicalId)}`;
  if (type === 'AWS::Lambda::Function') return `arn:aws:lambda:${region}:${accountId}:function:${physicalId(template, world, logicalId)}`;
  return `arn:aws:${service.toLowerCase()}:${region}:${accountId}:${kind.toLowerCase()}/${logicalId}`;
}

/**
 * Resolves the intrinsic functions of a template value with the local world: Ref (resources
 * and pseudo parameters), Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select, Fn::Split.
 */
export function resolveValue(template: Template, world: LocalWorld, value: TemplateValue): TemplateValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => resolveValue(template, world, item));
  const pseudo: Record<string, string> = {
    'AWS::Region': world.region,
    'AWS::AccountId': world.accountId,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': world.stackName,
    'AWS::StackId': `arn:aws:cloudformation:${world.region}:${world.accountId}:stack/${world.stackName}/local`,
  };
  const text = (item: TemplateValue) => {
    const resolved = resolveValue(template, world, item);
    return scalarText(resolved, JSON.stringify(resolved));
  };
  if (typeof value.Ref === 'string') return pseudo[value.Ref] ?? physicalId(template, world, value.Ref);
  const getAtt = value['Fn::GetAtt'];
  if (getAtt !== undefined) {
    const [logicalId, name] = Array.isArray(getAtt) ? getAtt.map((part) => scalarText(part)) : scalarText(getAtt).split('.');
    return attribute(template, world, logicalId ?? '', name ?? '');
  }
  const join = value['Fn::Join'];
  if (Array.isArray(join)) return ((join[1] ?? []) as TemplateValue[]).map(text).join(scalarText(join[0]));
  const sub = value['Fn::Sub'];
  if (sub !== undefined) {
    const [pattern, variables = {}] = Array.isArray(sub) ? (sub as [string, Record<string, TemplateValue>]) : [scalarText(sub), {}];
    return pattern.replace(/\$\{([^}!][^}]*)\}/g, (_match, name: string) => {
      if (name in variables) return text(variables[name] as TemplateValue);
      if (name in pseudo) return pseudo[name] as string;
      const [logicalId, attributeName] = name.split('.');
      return attributeName ? attribute(template, world, logicalId ?? '', attributeName) : physicalId(template, world, name);
    });
  }
  const select = value['Fn::Select'];
  if (Array.isArray(select)) {
    const list = resolveValue(template, world, select[1] ?? []);
    return Array.isArray(list) ? (list[Number(select[0])] ?? '') : '';
  }
  const split = value['Fn::Split'];
  if (Array.isArray(split)) return text(split[1] ?? '').split(scalarText(split[0]));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveValue(template, world, item)]));
}

/** The function's policy statements, resolved to the local ARNs: what the IAM proxy enforces. */
export function resolvedStatements(assembly: CloudAssembly, fn: AssemblyFunction, world: LocalWorld): PolicyStatement[] {
  return fn.statements.map((statement) => resolveValue(assembly.template, world, statement) as unknown as PolicyStatement);
}

/** Table ARNs and key schemas for the IAM evaluator, in the local world. */
export function dynamoContextOptions(assembly: CloudAssembly, world: LocalWorld): DynamoContextOptions {
  const keys = assembly.tables[0]?.keys;
  return {
    tableArn: (name) => tableArnOf(world, name),
    keys: (name) => (name === world.tableName ? keys : undefined),
  };
}

/** The local keys (`$DATA_DIR/keys.json`, written by local/environment.ts on first use). */
export interface LocalKeys {
  signing: Record<string, unknown>;
  public: { keys: Record<string, unknown>[] };
  cursor: string;
}

export function readLocalKeys(dataDir: string): LocalKeys {
  const file = join(dataDir, 'keys.json');
  if (!existsSync(file))
    throw new Error(`${file} is missing: start the local store once (npm start, or any npm run command that uses it) to generate the local keys`);
  const keys = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalKeys>;
  if (!keys.signing || !keys.public || !keys.cursor)
    throw new Error(`${file} lacks a key (signing, public or cursor): start the local store once to complete it`);
  return keys as LocalKeys;
}

/**
 * The variables whose value the code reads from Secrets Manager on AWS (`*_SECRET_ID`), and
 * the variable that carries the value itself locally (lib/secrets.ts, lib/auth/keys.ts).
 */
const SECRET_VARIABLES: Record<string, { local: string; value: (keys: LocalKeys) => string }> = {
  JWT_SIGNING_KEY_SECRET_ID: { local: 'JWT_SIGNING_KEY', value: (keys) => JSON.stringify(keys.signing) },
  CURSOR_SECRET_ID: { local: 'CURSOR_SECRET', value: (keys) => keys.cursor },
};

export interface BundleEnvironmentOptions {
  world: LocalWorld;
  /** Where the function's DynamoDB client goes: the IAM-checking proxy. */
  dynamoEndpoint: string;
  keys: LocalKeys;
  /** The mail outbox (MAIL_TRANSPORT=outbox). */
  outboxDir: string;
  /** npm start's stand-in for the import bucket (local/files.ts): its links' secret and its folder. */
  importUploads?: { secret: string; directory: string };
  /**
   * Plain values to replace, for a caller that serves the API somewhere the template does not
   * know (npm start: PATH_PREFIX '' and the local origins). Only variables the template has.
   */
  overrides?: Record<string, string>;
}

export interface BundleEnvironment {
  env: Record<string, string>;
  /** What was changed from the template and why, one line each; and secret ids whose read the role lacks. */
  notes: string[];
}

/**
 * The process environment of one function's worker: its template variables resolved, the
 * local stand-ins for AWS resources, and what the Lambda runtime itself sets.
 */
export function resolveFunctionEnvironment(assembly: CloudAssembly, fn: AssemblyFunction, options: BundleEnvironmentOptions): BundleEnvironment {
  const { world } = options;
  const notes: string[] = [];
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    const resolved = resolveValue(assembly.template, world, value);
    env[name] = typeof resolved === 'string' ? resolved : JSON.stringify(resolved);
  }

  const statements = resolvedStatements(assembly, fn, world);
  for (const [name, secret] of Object.entries(SECRET_VARIABLES)) {
    const secretArn = env[name];
    if (secretArn === undefined) continue;
    const read = evaluate(statements, { action: 'secretsmanager:GetSecretValue', resource: secretArn, context: {} });
    if (!read.allowed) {
      // On AWS the read would be denied: keep the id, so the function fails as it would there.
      notes.push(`${name}: the role may not read the secret (${read.missing}); the function gets no local value`);
      continue;
    }
    // Secrets Manager is not emulated: the code takes the value itself from `secret.local`.
    delete env[name];
    env[secret.local] = secret.value(options.keys);
    notes.push(`${name} → ${secret.local} (the local key)`);
  }
  for (const name of Object.keys(env)) {
    if (name.endsWith('_SECRET_ID') && !(name in SECRET_VARIABLES)) notes.push(`${name}: no local value is known for this secret; left as its id`);
  }
  if (env.EDGE_SECRET !== undefined) {
    // A dynamic reference CloudFormation resolves at deploy; locally no distribution stands in
    // front of the API, so the caller's address is the socket's.
    delete env.EDGE_SECRET;
    notes.push('EDGE_SECRET: dropped (no CloudFront in front of the local API)');
  }
  if (env.JWT_PUBLIC_KEYS !== undefined) {
    // The template's key set verifies the deployment's tokens; local tokens are signed with the local key.
    env.JWT_PUBLIC_KEYS = JSON.stringify(options.keys.public);
    notes.push('JWT_PUBLIC_KEYS → the local public keys');
  }
  if (env.MAIL_TRANSPORT !== undefined) {
    // SES is not emulated: mail goes to files, as in npm start.
    env.MAIL_TRANSPORT = 'outbox';
    env.OUTBOX_DIR = options.outboxDir;
    notes.push(`MAIL_TRANSPORT → outbox (${options.outboxDir})`);
  }
  if (env.IMPORT_BUCKET !== undefined) {
    // S3 is not emulated: import files go to npm start's own upload links, as without bundles.
    delete env.IMPORT_BUCKET;
    if (options.importUploads) {
      env.IMPORT_UPLOAD_SECRET = options.importUploads.secret;
      env.IMPORT_UPLOAD_DIR = options.importUploads.directory;
      notes.push(`IMPORT_BUCKET → local uploads (${options.importUploads.directory})`);
    } else notes.push('IMPORT_BUCKET: dropped, and no local uploads to stand in for it');
  }
  if (env.EXPORT_BUCKET !== undefined || env.EXPORT_QUEUE_URL !== undefined) {
    // Neither S3 nor SQS is emulated: export files and the export queue are npm start's own
    // (lib/exports/storage and queue, under the same folder as the import uploads).
    for (const name of ['EXPORT_BUCKET', 'EXPORT_QUEUE_URL'] as const) {
      if (env[name] === undefined) continue;
      delete env[name];
      if (options.importUploads) {
        env.IMPORT_UPLOAD_SECRET = options.importUploads.secret;
        env.IMPORT_UPLOAD_DIR = options.importUploads.directory;
        notes.push(`${name} → local ${name === 'EXPORT_BUCKET' ? 'files and download links' : 'queue folder'} (${options.importUploads.directory})`);
      } else notes.push(`${name}: dropped, and no local uploads to stand in for it`);
    }
  }
  if (env.TENANT_JOB_QUEUE_URL !== undefined) {
    // SQS is not emulated: a tenant job's first step runs in the function's own process, as under
    // npm start (lib/tenant-jobs/queue), with the function's grants (the worker's Scan is not among them).
    delete env.TENANT_JOB_QUEUE_URL;
    if (options.importUploads) {
      env.IMPORT_UPLOAD_SECRET = options.importUploads.secret;
      env.IMPORT_UPLOAD_DIR = options.importUploads.directory;
    }
    notes.push('TENANT_JOB_QUEUE_URL: dropped (the job runs in process)');
  }
  for (const [name, value] of Object.entries(options.overrides ?? {})) {
    if (env[name] === undefined) continue;
    env[name] = value;
    notes.push(`${name} → ${value} (override)`);
  }

  // What Lambda and the local store add: the endpoint (absent on AWS), the region, and the
  // role's credentials, whose access key id names the function so that the proxy knows the caller.
  Object.assign(env, {
    DYNAMODB_ENDPOINT: options.dynamoEndpoint,
    AWS_ENDPOINT_URL: UNREACHABLE_ENDPOINT,
    AWS_REGION: world.region,
    AWS_DEFAULT_REGION: world.region,
    AWS_ACCESS_KEY_ID: fn.logicalId,
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMB),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.logicalId}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'local',
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    LAMBDA_TASK_ROOT: fn.assetDir,
  });
  return { env, notes };
}

/** The role session ARN AWS names in an AccessDenied message for a function. */
export function assumedRoleArn(fn: AssemblyFunction, world: LocalWorld): string {
  return `arn:aws:sts::${world.accountId}:assumed-role/${world.stackName}-${fn.role.name}/${fn.logicalId}`;
}
