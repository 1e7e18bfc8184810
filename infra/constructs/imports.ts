import { Aws, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, EventType, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { type Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { IMPORT_MAX_RECEIVES, IMPORT_RETENTION_DAYS } from '../../lib/imports/model';
import { workers } from '../../lib/routes';
import { acknowledgeFunctionOutsideVpc, bucketArnInFinding } from '../acknowledgments';
import { type ServiceFunction } from './functions';
import { queueWorker } from './queue-worker';

/** Construct id, and CloudFormation logical id, of the import worker. */
export const IMPORT_WORKER_FUNCTION_ID = 'ImportWorkerFunction';
/** A step handles STEP_ROWS rows (lib/imports/engine): seconds on DynamoDB; a minute leaves room for a slow one. */
export const IMPORT_WORKER_TIMEOUT = Duration.seconds(60);
/** At most this many import steps run at once, whatever the number of jobs: the API's own traffic keeps the table's capacity. */
export const IMPORT_MAX_CONCURRENCY = 2;
/** Where the files are, in the bucket (lib/imports/storage `importFileKey`). */
const FILE_PREFIX = 'imports/';

export interface ImportsProps {
  table: ITableV2;
  environment: Record<string, string>;
  /** The origins a browser uploads from (the console's, and the stage's allowed ones). */
  allowedOrigins: readonly string[];
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

/**
 * CSV imports on AWS engines (lib/imports):
 * - a private bucket the client PUTs the file to, by a link POST /imports presigns (API Gateway
 *   would take 10 MB at most, a function's request 6 MB); files expire after IMPORT_RETENTION_DAYS;
 * - the bucket's notice of each new file → the import queue → the import worker, one message
 *   at a time and at most IMPORT_MAX_CONCURRENCY at once; each step sends the next to the queue;
 * - a step that keeps failing → the dead-letter queue, alarmed on (infra/constructs/observability).
 */
export class Imports extends Construct {
  readonly bucket: Bucket;
  /**
   * Where browsers PUT the files: the bucket's regional endpoint, as the presigned links name it.
   * Built from the bucket's name, which is made from the stack, the account and the region rather
   * than generated, so the console's CSP can name it without a cycle (the bucket's CORS rule names
   * the console's distribution, whose response headers hold the CSP).
   */
  readonly uploadOrigin: string;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: ServiceFunction;

  constructor(scope: Construct, id: string, props: ImportsProps) {
    super(scope, id);
    const worker = workers.importWorker;

    const bucketName = `${Stack.of(this).stackName.toLowerCase()}-imports-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
    this.uploadOrigin = `https://${bucketName}.s3.${Aws.REGION}.amazonaws.com`;
    this.bucket = new Bucket(this, 'Bucket', {
      bucketName,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
      lifecycleRules: [
        { id: 'ExpireImportFiles', prefix: FILE_PREFIX, expiration: Duration.days(IMPORT_RETENTION_DAYS) },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // The console PUTs the file from its origin; the presigned URL decides what may be put.
      cors: [{ allowedOrigins: [...props.allowedOrigins], allowedMethods: [HttpMethods.PUT], allowedHeaders: ['content-type'], maxAge: 3600 }],
    });

    const built = queueWorker(this, {
      worker,
      functionId: IMPORT_WORKER_FUNCTION_ID,
      area: 'Imports',
      queueName: 'the import queue',
      deadLetterInspection: 'an operator inspects and redrives it (alarm on any message).',
      timeout: IMPORT_WORKER_TIMEOUT,
      cpu: 'search',
      environment: { ...props.environment, IMPORT_BUCKET: this.bucket.bucketName },
      maxReceives: IMPORT_MAX_RECEIVES,
      batchSize: 1,
      maxConcurrency: IMPORT_MAX_CONCURRENCY,
      sendsNextAs: 'IMPORT_QUEUE_URL',
      table: props.table,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.queue = built.queue;
    this.deadLetterQueue = built.deadLetterQueue;
    this.worker = built.worker;
    this.bucket.addEventNotification(EventType.OBJECT_CREATED_PUT, new SqsDestination(this.queue), { prefix: FILE_PREFIX });

    const fn = this.worker.function;
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${FILE_PREFIX}*`)] }));
    this.acknowledgeFilesPrefix(this.worker.role, 'reads');

    this.acknowledgeFindings();
  }

  /** The route that presigns uploads: the bucket's name, and PutObject on the files' prefix (a presigned URL carries its signer's permissions). */
  bindUploader(fn: NodejsFunction): void {
    fn.addEnvironment('IMPORT_BUCKET', this.bucket.bucketName);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [this.bucket.arnForObjects(`${FILE_PREFIX}*`)] }));
    if (fn.role) this.acknowledgeFilesPrefix(fn.role, 'presigns uploads to');
  }

  /** The one wildcard of a role that reaches the files: their prefix, since each job's key is made when it is. */
  private acknowledgeFilesPrefix(role: IConstruct, does: string): void {
    const bucketArn = bucketArnInFinding(this.bucket, role);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${bucketArn}/${FILE_PREFIX}*]`,
      reason: `This role ${does} import files, one per job under ${FILE_PREFIX}<tenant>/<job>.csv; the key is made with the job, so the grant is the prefix: the bucket holds nothing else.`,
    });
  }

  private acknowledgeFindings(): void {
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: `The bucket holds each import's CSV for ${IMPORT_RETENTION_DAYS} days; who made an import, when and from where is in the audit trail (import.created) and its job. Server access logs would be a second record of the same uploads, of IP addresses (personal data under the LGPD).`,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'cdk-validator-cfnguard::s3_event_notifications_enabled_check',
      reason:
        "The bucket notifies the import queue of every new file (addEventNotification): CDK writes that notification with its custom resource (Custom::S3BucketNotifications), not in the bucket's own NotificationConfiguration, which the rule reads.",
    });
    for (const [rule, reason] of Object.entries(BUCKET_GUARD_REASONS))
      Validations.of(this.bucket).acknowledge({ id: `cdk-validator-cfnguard::${rule}`, reason });
    // CDK's function that writes the bucket's notification configuration, at the stack's root.
    const notifications = Stack.of(this).node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834');
    if (notifications) {
      acknowledgeFunctionOutsideVpc(notifications);
      Validations.of(notifications).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's bucket-notifications function writes its logs with the basic execution policy; it runs only during a deployment, to set the import bucket's notification.",
      });
      Validations.of(notifications).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: "CDK's bucket-notifications function: s3:PutBucketNotification on '*' is how aws-cdk-lib writes it; it runs only during a deployment.",
      });
    }
  }
}

/** Control Tower findings on the import bucket that stay, by rule. */
const BUCKET_GUARD_REASONS: Record<string, string> = {
  s3_bucket_default_encryption_kms_check:
    "Import files are encrypted at rest with S3-managed keys. A KMS key would cost $1/month plus requests and need grants for the presigning route and the worker; the files are the tenant's own catalogue, deleted after 30 days.",
  s3_bucket_versioning_enabled_check:
    'Each file is written once under its job id and read by that job; versions would only keep copies of files that expire after 30 days.',
  s3_bucket_logging_enabled_check: 'Who uploaded which file is in the audit trail and the job (see AwsSolutions-S1).',
  s3_bucket_object_lock_enabled_check: 'Files must be deletable: they expire after 30 days, and a tenant closing its account has them deleted.',
};
