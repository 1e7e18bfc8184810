import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

/**
 * The one SQS sender of the background jobs (exports, imports, tenant jobs, webhook
 * deliveries): a message as JSON, optionally held back `delaySeconds`, through one client per
 * process. A route that only sometimes starts a job imports this module dynamically
 * (./queue's `enqueue`), so that its cold start does not load the client; under npm start,
 * `enqueue` writes to a folder instead.
 */
let client: SQSClient | undefined;

export async function sendMessage(queueUrl: string, message: unknown, delaySeconds?: number): Promise<void> {
  client ??= new SQSClient({});
  await client.send(
    new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), ...(delaySeconds === undefined ? {} : { DelaySeconds: delaySeconds }) }),
  );
}
