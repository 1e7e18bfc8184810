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
import { EXPORT_FILE_DAYS, EXPORT_MAX_RECEIVES } from '../../lib/exports/model';
import { workers } from '../../lib/routes';
import { notifyAlarm } from './dead-letter-queue';
import { type ServiceFunction } from './functions';
import { queueWorker } from './queue-worker';

/** Construct id, and CloudFormation logical id, of the export worker. */
export const EXPORT_WORKER_FUNCTION_ID = 'ExportWorkerFunction';
/** One run writes a whole export: a million rows are a few minutes of Queries and BatchGets. */
export const EXPORT_WORKER_TIMEOUT = Duration.seconds(300);
/** At most this many exports run at once, whatever the number of jobs: the API's own traffic keeps the table's capacity. */
export const EXPORT_MAX_CONCURRENCY = 2;
/** Where the files are, in the imports bucket (lib/exports/storage `exportFileKey`); its notice to the import queue is filtered to `imports/`. */
const FILE_PREFIX = 'exports/';

export interface ExportsProps {
  table: ITableV2;
  /** The imports bucket (infra/constructs/imports.ts): the exports' files are kept there under `exports/`. */
  bucket: Bucket;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

/**
 * CSV exports on AWS engines (lib/exports):
 * - POST /exports → the export queue → the export worker, one message (one whole export) at a
 *   time and at most EXPORT_MAX_CONCURRENCY at once; it streams the file to the bucket as a
 *   multipart upload, under `exports/`, where the files expire after EXPORT_FILE_DAYS;
 * - a run that keeps failing → the dead-letter queue (its job marked failed), alarmed on;
 * - GET /exports/{id} presigns a download of a done job's file.
 */
export class Exports extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker: ServiceFunction;
  readonly deadLetterAlarm: Alarm;
  private readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: ExportsProps) {
    super(scope, id);
    const worker = workers.exportWorker;
    this.bucket = props.bucket;
    this.bucket.addLifecycleRule({ id: 'ExpireExportFiles', prefix: FILE_PREFIX, expiration: Duration.days(EXPORT_FILE_DAYS) });

    const built = queueWorker(this, {
      worker,
      functionId: EXPORT_WORKER_FUNCTION_ID,
      area: 'Exports',
      queueName: 'the export queue',
      deadLetterInspection: 'an operator inspects it (alarm on any message); its jobs are marked failed, so users start them again.',
      timeout: EXPORT_WORKER_TIMEOUT,
      environment: { ...props.environment, EXPORT_BUCKET: this.bucket.bucketName },
      maxReceives: EXPORT_MAX_RECEIVES,
      batchSize: 1,
      maxConcurrency: EXPORT_MAX_CONCURRENCY,
      alarm:
        'Exports: a run failed after its retries (the store, the bucket or the queue failed) and its job is marked failed. Fix the cause; the user starts the export again (the message need not be redriven).',
      table: props.table,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.queue = built.queue;
    this.deadLetterQueue = built.deadLetterQueue;
    this.worker = built.worker;
    this.deadLetterAlarm = built.deadLetterAlarm;
    // A multipart upload: PutObject covers CreateMultipartUpload, UploadPart and CompleteMultipartUpload; AbortMultipartUpload apart.
    this.worker.function.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [this.bucket.arnForObjects(`${FILE_PREFIX}*`)] }),
    );
    this.acknowledgeFilesPrefix(this.worker.role, 'writes');
  }

  /** The alarm notifies the stack's alarm topic, when it has one (infra/constructs/observability.ts). */
  notify(topic: ITopic | undefined): void {
    notifyAlarm(this.deadLetterAlarm, topic);
  }

  /** POST /exports: the queue's URL, and SendMessage on it. */
  bindStarter(fn: NodejsFunction): void {
    fn.addEnvironment('EXPORT_QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }

  /** GET /exports/{id}: the bucket's name, and GetObject on the files' prefix (a presigned URL carries its signer's permissions). */
  bindDownloadSigner(fn: NodejsFunction): void {
    fn.addEnvironment('EXPORT_BUCKET', this.bucket.bucketName);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${FILE_PREFIX}*`)] }));
    if (fn.role) this.acknowledgeFilesPrefix(fn.role, 'presigns downloads of');
  }

  /** The one wildcard of a role that reaches the files: their prefix, since each job's key is made when it is. */
  private acknowledgeFilesPrefix(role: IConstruct, does: string): void {
    const bucketArn = bucketArnInFinding(this.bucket, role);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${bucketArn}/${FILE_PREFIX}*]`,
      reason: `This role ${does} export files, one per job under ${FILE_PREFIX}<tenant>/<job>.csv; the key is made with the job, so the grant is the prefix, and no other prefix of the bucket.`,
    });
  }
}
