import { Match, type Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { missingControlTowerRuleFolders, synthWithoutBundling, type ValidationReport, violationsOf } from './synth';

/**
 * The other configurations of the stack: prod, a custom domain, an alarm topic, a cached
 * authorizer, each passing the AWS Solutions checks; and proof that the checks are live (a
 * new unacknowledged finding fails synthesis). Bundling is skipped here: these are template
 * properties, and test/infra/stack.test.ts covers the bundles.
 */

type Json = Record<string, unknown>;

const CERTIFICATE = 'arn:aws:acm:sa-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';
const TOPIC = 'arn:aws:sns:sa-east-1:123456789012:ops-alarms';

interface Variant {
  template: Template;
  report: ValidationReport;
}

let prod: Variant;
let prodWithDomain: Variant;
let devWithDomainOnly: Variant;
let devWithTopic: Variant;
let withNewFinding: { report: ValidationReport; error?: Error };

function synthesized(context: Json): Variant {
  const { template, report, error } = synthWithoutBundling(context);
  if (error || !template) throw error ?? new Error('no template');
  return { template, report };
}

beforeAll(() => {
  prod = synthesized({ stage: 'prod' });
  prodWithDomain = synthesized({
    stage: 'prod',
    domainName: 'api.acme.com',
    certificateArn: CERTIFICATE,
    hostedZoneId: 'Z0123456789ABC',
    hostedZoneName: 'acme.com',
    alarmEmail: 'ops@acme.com',
  });
  devWithDomainOnly = synthesized({ stage: 'dev', domainName: 'api.dev.acme.com', certificateArn: CERTIFICATE });
  devWithTopic = synthesized({
    stage: 'dev',
    alarmTopicArn: TOPIC,
    allowedOrigins: 'https://app.acme.com',
    appUrl: 'https://admin.acme.com/console',
  });
  withNewFinding = synthWithoutBundling({ stage: 'dev' }, (stack) => {
    new Queue(stack, 'UnacknowledgedQueue');
  });
}, 240_000);

/** The logical id of the one resource of a type. */
function onlyId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids, type).toHaveLength(1);
  return ids[0] as string;
}

const resourcesOf = (template: Template, type: string): [string, { Properties: Json; DeletionPolicy?: string; UpdateReplacePolicy?: string }][] =>
  Object.entries(template.findResources(type)) as [string, { Properties: Json; DeletionPolicy?: string; UpdateReplacePolicy?: string }][];

/** Every function but CDK's custom-resource handlers (the console's BucketDeployment, the bucket's auto-delete). */
function serviceFunctions(template: Template): [string, { Properties: Json }][] {
  const handlers = new Set(
    Object.entries(template.toJSON().Resources as Record<string, { Type: string; Properties?: { ServiceToken?: { 'Fn::GetAtt'?: [string] } } }>)
      .filter(([, resource]) => resource.Type.startsWith('Custom::'))
      .map(([, resource]) => resource.Properties?.ServiceToken?.['Fn::GetAtt']?.[0]),
  );
  return resourcesOf(template, 'AWS::Lambda::Function').filter(([id]) => !handlers.has(id));
}

describe('AWS Solutions checks on every configuration', () => {
  it.each([
    ['prod', () => prod],
    ['prod with a custom domain, hosted zone and alarm e-mail', () => prodWithDomain],
    ['dev with a custom domain and no zone', () => devWithDomainOnly],
    ['dev with an alarm topic', () => devWithTopic],
  ])('%s: no unacknowledged AwsSolutions or Control Tower finding, every rule folder it needs', (_name, variant) => {
    expect(violationsOf(variant().report, 'AwsSolutions')).toEqual([]);
    expect(violationsOf(variant().report, 'cdk-validator-cfnguard')).toEqual([]);
    expect(missingControlTowerRuleFolders(variant().template)).toEqual([]);
  });

  it('fails synthesis on a new unacknowledged finding, naming the rule and the resource', () => {
    expect(withNewFinding.error?.message).toMatch(/AwsSolutions-SQS4/);
    expect(violationsOf(withNewFinding.report, 'AwsSolutions')).toEqual(
      expect.arrayContaining([
        'AwsSolutions-SQS3 (error) at Backoffice-dev/UnacknowledgedQueue/Resource',
        'AwsSolutions-SQS4 (error) at Backoffice-dev/UnacknowledgedQueue/Resource',
      ]),
    );
  });
});

describe('prod', () => {
  it('retains the table, its deletion protection, the signing key, the queue and every log group', () => {
    prod.template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })] }),
    });
    for (const type of ['AWS::SecretsManager::Secret', 'AWS::SQS::Queue', 'AWS::Logs::LogGroup']) {
      for (const [id, resource] of resourcesOf(prod.template, type)) expect(resource.DeletionPolicy, id).toBe('Retain');
    }
  });

  it('keeps logs for three months and throttles at 500 requests per second, bursts of 1000', () => {
    for (const [id, logGroup] of resourcesOf(prod.template, 'AWS::Logs::LogGroup')) expect(logGroup.Properties.RetentionInDays, id).toBe(90);
    prod.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 })]),
    });
  });

  it('sends every alarm and its recovery to a TLS-only topic of its own, exported for subscriptions', () => {
    const topicId = onlyId(prod.template, 'AWS::SNS::Topic');
    const alarms = resourcesOf(prod.template, 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(4);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
    }
    prod.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    prod.template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
    prod.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('keeps the authorizer cache off and no stage prefix in the cookie paths: browsers reach the API through the distribution', () => {
    prod.template.hasResourceProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 0 });
    for (const [id, fn] of serviceFunctions(prod.template)) {
      expect((fn.Properties.Environment as { Variables: Json }).Variables.PATH_PREFIX, id).toBe('');
    }
  });
});

describe('custom domain', () => {
  it('maps the API at the root of the domain, TLS 1.2, with the given regional certificate', () => {
    const { template } = prodWithDomain;
    template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'api.acme.com',
      RegionalCertificateArn: CERTIFICATE,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    const mapping = resourcesOf(template, 'AWS::ApiGateway::BasePathMapping');
    expect(mapping).toHaveLength(1);
    expect(mapping[0]?.[1].Properties).toMatchObject({
      RestApiId: { Ref: onlyId(template, 'AWS::ApiGateway::RestApi') },
      Stage: { Ref: onlyId(template, 'AWS::ApiGateway::Stage') },
    });
    expect(mapping[0]?.[1].Properties.BasePath).toBeUndefined();
  });

  it('switches the execute-api URL off and drops the stage prefix from the cookie paths', () => {
    const { template } = prodWithDomain;
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: true });
    for (const [id, fn] of serviceFunctions(template)) {
      expect((fn.Properties.Environment as { Variables: Json }).Variables.PATH_PREFIX, id).toBe('');
    }
    template.hasOutput('ApiUrl', { Value: 'https://api.acme.com/' });
  });

  it('creates the alias record in the given zone, or exports the target name to point DNS at', () => {
    prodWithDomain.template.hasResourceProperties('AWS::Route53::RecordSet', {
      Name: 'api.acme.com.',
      Type: 'A',
      HostedZoneId: 'Z0123456789ABC',
      AliasTarget: Match.objectLike({ DNSName: Match.anyValue() }),
    });
    devWithDomainOnly.template.resourceCountIs('AWS::Route53::RecordSet', 0);
    devWithDomainOnly.template.hasOutput('ApiDomainTarget', { Value: Match.anyValue() });
  });

  it('subscribes the alarm e-mail to the created topic', () => {
    prodWithDomain.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@acme.com' });
  });
});

describe("the console on the API's origin", () => {
  const distributionConfig = (template: Template): Json =>
    (Object.values(template.findResources('AWS::CloudFront::Distribution'))[0] as { Properties: { DistributionConfig: Json } }).Properties.DistributionConfig;
  const apiOrigin = (template: Template): Json => {
    const config = distributionConfig(template);
    const target = (config.DefaultCacheBehavior as Json).TargetOriginId;
    return (config.Origins as Json[]).find((origin) => origin.Id === target) as Json;
  };

  it('serves prod from every edge location, South America included, and keeps its bucket with its contents', () => {
    expect(distributionConfig(prod.template).PriceClass).toBe('PriceClass_All');
    for (const [id, bucket] of resourcesOf(prod.template, 'AWS::S3::Bucket')) expect(bucket.DeletionPolicy, id).toBe('Retain');
    prod.template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });

  it('lets only CloudFront read the prod bucket, for this distribution (no auto-delete role there)', () => {
    const policies = resourcesOf(prod.template, 'AWS::S3::BucketPolicy');
    const allowsOf = (prefix: string) => {
      const [, policy] = policies.find(([id]) => id.startsWith(prefix)) ?? [];
      return (policy?.Properties.PolicyDocument as { Statement: Json[] }).Statement.filter((statement) => statement.Effect === 'Allow');
    };
    // The imports bucket's policy only refuses plain HTTP: its readers and writers hold their grants in their roles.
    expect(allowsOf('Imports')).toEqual([]);
    const allows = allowsOf('Console');
    expect(allows).toEqual([
      expect.objectContaining({
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Condition: {
          StringEquals: {
            'AWS:SourceArn': { 'Fn::Join': ['', expect.arrayContaining([':distribution/', { Ref: onlyId(prod.template, 'AWS::CloudFront::Distribution') }])] },
          },
        },
      }),
    ]);
  });

  it('forwards to the custom domain, mapped at its root, when the execute-api endpoint is off; the console stays on the distribution', () => {
    expect(apiOrigin(prodWithDomain.template)).toMatchObject({
      DomainName: 'api.acme.com',
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
    });
    expect(apiOrigin(prodWithDomain.template).OriginPath).toBeUndefined();
    const distributionId = onlyId(prodWithDomain.template, 'AWS::CloudFront::Distribution');
    for (const [id, fn] of serviceFunctions(prodWithDomain.template)) {
      expect((fn.Properties.Environment as { Variables: Json }).Variables.APP_URL, id).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/console']],
      });
    }
    prodWithDomain.template.hasOutput('ConsoleUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/console/']] },
    });
  });

  it('forwards to the execute-api host with the stage as the origin path otherwise', () => {
    expect(apiOrigin(prod.template)).toMatchObject({
      DomainName: {
        'Fn::Join': ['', [{ Ref: onlyId(prod.template, 'AWS::ApiGateway::RestApi') }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]],
      },
      OriginPath: '/prod',
    });
  });
});

describe('dev options', () => {
  it('sends the alarms to an existing topic without creating one', () => {
    const { template } = devWithTopic;
    template.resourceCountIs('AWS::SNS::Topic', 0);
    for (const [id, alarm] of resourcesOf(template, 'AWS::CloudWatch::Alarm')) expect(alarm.Properties.AlarmActions, id).toEqual([TOPIC]);
  });

  it("takes the other origins and the console's URL from context, the console's origin still first", () => {
    const distributionId = onlyId(devWithTopic.template, 'AWS::CloudFront::Distribution');
    for (const [id, fn] of serviceFunctions(devWithTopic.template)) {
      expect((fn.Properties.Environment as { Variables: Json }).Variables, id).toMatchObject({
        ALLOWED_ORIGINS: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, ',https://app.acme.com']] },
        APP_URL: 'https://admin.acme.com/console',
      });
    }
  });

  it('never caches authorizer results: a revoked session or API key is refused on the next request', () => {
    devWithTopic.template.hasResourceProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 0 });
  });
});
