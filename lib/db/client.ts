import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storeConfig } from '../config';
import { readNumber } from './decimals';

let client: DynamoDBDocumentClient | undefined;

/** The one document client of the process, created on first use and reused by every invocation. */
export function db(): DynamoDBDocumentClient {
  if (client) return client;
  const { AWS_REGION, DYNAMODB_ENDPOINT } = storeConfig();
  client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ ...(AWS_REGION ? { region: AWS_REGION } : {}), ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}) }),
    // Numbers too long for a float come back as decimal text (./decimals); every other one as a number.
    { marshallOptions: { removeUndefinedValues: true }, unmarshallOptions: { wrapNumbers: readNumber } },
  );
  return client;
}

/** The table every repository reads and writes. */
export function tableName(): string {
  return storeConfig().TABLE_NAME;
}

/** One write of a DynamoDB transaction, as the repositories compose them. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
