import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type Bucket } from 'aws-cdk-lib/aws-s3';
import { type ITopic } from 'aws-cdk-lib/aws-sns';
import { type Queue } from 'aws-cdk-lib/aws-sqs';
import { bucketArnInFinding } from '../acknowledgments';
import { Construct, type IConstruct } from 'constructs';
import { workers } from '../../lib/routes';
import { TENANT_EXPORT_FILE_DAYS } from '../../lib/tenant-jobs/model';
import { notifyAlarm } from './dead-letter-queue';
import { type ServiceFunction } from './functions';
import { queueWorker } from './queue-worker';

/** Construct id, and CloudFormation logical id, of the tenant jobs' worker. */
export const TENANT_JOB_WORKER_FUNCTION_ID = 'TenantJobWorkerFunction';
/** A step reads TENANT_SCAN_PAGES pages of each of TENANT_SCAN_SEGMENTS segments (lib/tenant-jobs/model), about 16 MB, and deletes or writes what it found: seconds; two minutes leave room. */
export const TENANT_JOB_WORKER_TIMEOUT = Duration.seconds(120);
/** One step at a time: a deletion or an export reads the whole table, and the API's traffic keeps its capacity. */
export const TENANT_JOB_MAX_CONCURRENCY = 2;
/** A step received this many times without being done goes to the dead-letter queue (the job stays where it was). */
export const TENANT_JOB_MAX_RECEIVES = 5;
/** A tenant's files, in the imports bucket: its imports', its CSV exports' and its whole exports'. */
const TENANT_FILE_PREFIXES = ['imports/', 'exports/', 'tenant-exports/'] as const;
const EXPORT_PREFIX = 'tenant-exports/';

export interface TenantJobsProps {
  table: ITableV2;
  /** The imports bucket (infra/constructs/imports.ts): the exports are written there, a deleted tenant's files removed from it. */
  bucket: Bucket;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

/**
 * The tenant jobs (lib/tenant-jobs): a closed tenant's deletion and a tenant's export, each a
 * walk through the table's Scan in steps.
 * - the tenant jobs' queue → the worker, one message at a time and at most
 *   TENANT_JOB_MAX_CONCURRENCY at once; each step sends the next to the queue; the first comes
 *   from the daily deletion job (infra/constructs/jobs.ts) or POST /tenants/{id}/export;
 * - a step that keeps failing → the dead-letter queue, alarmed on here.
 * The worker is the one function granted Scan: a Scan has no partition key, so the credentials'
 * and webhook secrets' Deny (keyed on dynamodb:LeadingKeys) could not hold for it; it is granted
 * both partitions, which a deletion removes anyway (docs/decisions.md, "Closing a tenant").
 */
export class TenantJobs extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: ServiceFunction;
  readonly deadLetterAlarm: Alarm;
  private readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: TenantJobsProps) {
    super(scope, id);
    const worker = workers.tenantJobWorker;
    this.bucket = props.bucket;
    this.bucket.addLifecycleRule({ id: 'ExpireTenantExports', prefix: EXPORT_PREFIX, expiration: Duration.days(TENANT_EXPORT_FILE_DAYS) });

    const built = queueWorker(this, {
      worker,
      functionId: TENANT_JOB_WORKER_FUNCTION_ID,
      area: 'Tenant jobs',
      queueName: 'the tenant jobs',
      deadLetterInspection: 'an operator inspects and redrives it (alarm on any message).',
      timeout: TENANT_JOB_WORKER_TIMEOUT,
      cpu: 'search',
      environment: { ...props.environment, IMPORT_BUCKET: props.bucket.bucketName },
      maxReceives: TENANT_JOB_MAX_RECEIVES,
      batchSize: 1,
      maxConcurrency: TENANT_JOB_MAX_CONCURRENCY,
      sendsNextAs: 'TENANT_JOB_QUEUE_URL',
      alarm:
        "Tenant jobs: a step of a tenant's deletion or export failed after its retries (the store, the bucket or the queue failed), and the job stays where it was. Fix the cause, then redrive the dead-letter queue to the tenant jobs' queue; a step is safe to run twice (the daily deletion job also sends a stalled deletion's step again).",
      table: props.table,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.queue = built.queue;
    this.deadLetterQueue = built.deadLetterQueue;
    this.worker = built.worker;
    this.deadLetterAlarm = built.deadLetterAlarm;
    const fn = this.worker.function;
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [props.bucket.arnForObjects(`${EXPORT_PREFIX}*`)] }));
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:DeleteObject'], resources: TENANT_FILE_PREFIXES.map((prefix) => props.bucket.arnForObjects(`${prefix}*`)) }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [props.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': TENANT_FILE_PREFIXES.map((prefix) => `${prefix}*`) } },
      }),
    );
    this.acknowledgePrefixes(this.worker.role, TENANT_FILE_PREFIXES, "writes exports to and removes a deleted tenant's files from");
  }

  /** The stage's alarm topic, when it has one (infra/constructs/observability): the dead-letter alarm's actions. */
  notify(topic: ITopic | undefined): void {
    notifyAlarm(this.deadLetterAlarm, topic);
  }

  /** A function that sends a job's first step (the daily deletion job, POST /tenants/{id}/export): the queue's URL and SendMessage. */
  bindStarter(fn: NodejsFunction): void {
    fn.addEnvironment('TENANT_JOB_QUEUE_URL', this.queue.queueUrl);
    // SendMessage alone (the SDK's send needs no other), a statement of its own.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
  }

  /** The route that presigns an export's downloads: the bucket's name, and GetObject on the exports' prefix (a presigned URL carries its signer's permissions). */
  bindExportReader(fn: NodejsFunction): void {
    fn.addEnvironment('IMPORT_BUCKET', this.bucket.bucketName);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${EXPORT_PREFIX}*`)] }));
    if (fn.role) this.acknowledgePrefixes(fn.role, [EXPORT_PREFIX], 'presigns downloads of');
  }

  /** The wildcards of a role that reach the tenants' files: their prefixes, since each key is made with its job. */
  private acknowledgePrefixes(role: IConstruct, prefixes: readonly string[], does: string): void {
    const bucketArn = bucketArnInFinding(this.bucket, role);
    for (const prefix of prefixes) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${bucketArn}/${prefix}*]`,
        reason: `This role ${does} the tenants' files under ${prefix}<tenant>/…; each key is made with its job, so the grant is the prefix.`,
      });
    }
  }
}
