import { type CfnResource, Names, Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Control Tower findings (cfn-guard, infra/backoffice-app.ts) that the stack keeps on
 * purpose for more than one construct, each with its reason. Findings about one construct
 * are acknowledged beside it, as the cdk-nag ones are.
 */

/** A log group of the stack: a function's, or the API's access and execution logs. */
export function acknowledgeLogGroupFindings(logGroup: IConstruct): void {
  Validations.of(logGroup).acknowledge({
    id: 'cdk-validator-cfnguard::cloudwatch_log_group_encrypted_check',
    reason:
      'CloudWatch Logs encrypts every log group at rest with keys it manages. A customer-managed KMS key would add $1/month plus request charges and a key policy for the logs service, to protect lines that hold no secret by construction (lib/log.ts: no bodies, cookies or tokens are logged).',
  });
  Validations.of(logGroup).acknowledge({
    id: 'cdk-validator-cfnguard::cloudwatch_log_group_retention_period_check',
    reason:
      "Operational logs hold IP addresses and user ids (personal data under the LGPD), so they are kept only as long as operations need them: the stage's logRetention (2 weeks in dev, 3 months in prod). The long-lived record of who did what is the audit trail in DynamoDB (AUDIT_RETENTION_DAYS, 400 days by default).",
  });
}

/** A Lambda function, about the VPC rule. */
export function acknowledgeFunctionOutsideVpc(fn: IConstruct): void {
  Validations.of(fn).acknowledge({
    id: 'cdk-validator-cfnguard::lambda_inside_vpc_check',
    reason:
      'The functions reach only AWS service endpoints (DynamoDB, SES, Secrets Manager, X-Ray) over TLS with IAM-signed requests; there is no private resource to reach. A VPC would need NAT or interface endpoints (about $7/month each per AZ) and add cold-start work, for no reduction of what a function can reach: its role already names every table, index, secret and identity it may use.',
  });
}

/** The resource-based permissions that let API Gateway invoke a function (a route's or the authorizer's). */
export function acknowledgeApiGatewayInvokePermissions(scope: IConstruct): void {
  Validations.of(scope).acknowledge({
    id: 'cdk-validator-cfnguard::lambda_function_public_access_prohibited_check',
    reason:
      "Each permission names apigateway.amazonaws.com with a SourceArn of this REST API's execute-api ARN (a Fn::Join of the API id, region and account, which the rule cannot evaluate: it accepts only literal strings or Ref/GetAtt). The stack test checks that every Lambda permission has that principal and a SourceArn under this API.",
  });
}

/**
 * How cdk-nag names a bucket's ARN in a finding about `from`'s policy: `<LogicalId.Arn>` in
 * the bucket's own stack, and in a nested stack the parameter CDK passes it through,
 * `<referenceto<the bucket's unique id>Arn>` (CDK's name for it).
 */
export function bucketArnInFinding(bucket: IConstruct, from: IConstruct): string {
  const owner = Stack.of(bucket);
  const resource = bucket.node.defaultChild as CfnResource;
  if (Stack.of(from) === owner) return `<${owner.resolve(owner.getLogicalId(resource)) as string}.Arn>`;
  return `<referenceto${Names.nodeUniqueId(resource.node)}Arn>`;
}
