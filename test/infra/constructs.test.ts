import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { Data } from '../../infra/constructs/data';
import { Mail } from '../../infra/constructs/mail';
import { fromRoot } from '../../infra/paths';
import { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { allowedOrigins, functionEnvironment } from '../../infra/stack';
import { PLACEHOLDER_JWT_PUBLIC_KEYS, resolveStage, type ContextReader } from '../../infra/stages';
import { LOCAL_APP_ORIGIN } from '../../lib/settings';
import { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS } from '../../lib/routes';

/** Constructs and stage settings that need no bundling, so no full synth. */

const context =
  (values: Record<string, unknown>): ContextReader =>
  (key) =>
    values[key];

describe('resolveStage', () => {
  it('defaults to dev with the placeholder key set, no authorizer cache, no custom domain and no alarm topic', () => {
    const stage = resolveStage(context({}));
    expect(stage).toMatchObject({
      name: 'dev',
      jwtPublicKeys: PLACEHOLDER_JWT_PUBLIC_KEYS,
      removalPolicy: RemovalPolicy.DESTROY,
      deletionProtection: false,
      mailIdentity: 'dev.example.com',
      createAlarmTopic: false,
    });
    expect(stage.customDomain).toBeUndefined();
  });

  it("leaves the browser side to the console's distribution: no app URL, and only the local console as another origin in dev", () => {
    const dev = resolveStage(context({}));
    const prod = resolveStage(context({ stage: 'prod' }));
    expect(dev.appUrl).toBeUndefined();
    expect(prod.appUrl).toBeUndefined();
    expect(dev.allowedOrigins).toEqual([LOCAL_APP_ORIGIN]);
    expect(prod.allowedOrigins).toEqual([]);
  });

  it('serves dev from North America and Europe, prod from every edge (South America only there)', () => {
    expect(resolveStage(context({})).priceClass).toBe(PriceClass.PRICE_CLASS_100);
    expect(resolveStage(context({ stage: 'prod' })).priceClass).toBe(PriceClass.PRICE_CLASS_ALL);
  });

  it('turns an optional job on only when context enableJobs names it, and refuses a job that is not optional or not known', () => {
    expect(resolveStage(context({})).enabledJobs).toEqual([]);
    expect(resolveStage(context({ enableJobs: ' integrityCheck ' })).enabledJobs).toEqual(['integrityCheck']);
    expect(() => resolveStage(context({ enableJobs: 'salesRollup' }))).toThrow(
      'Context "enableJobs": "salesRollup" is not an optional job; the optional jobs are integrityCheck',
    );
    expect(() => resolveStage(context({ enableJobs: 'nightly' }))).toThrow('Context "enableJobs": "nightly" is not an optional job');
  });

  it('retains and protects the data in prod, keeps logs longer, throttles higher and creates an alarm topic', () => {
    const dev = resolveStage(context({ stage: 'dev' }));
    const prod = resolveStage(context({ stage: 'prod' }));
    expect(prod).toMatchObject({
      name: 'prod',
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
      createAlarmTopic: true,
    });
    expect(prod.logRetention).toBeGreaterThan(dev.logRetention);
    expect(prod.throttling.rateLimit).toBeGreaterThan(dev.throttling.rateLimit);
  });

  it('serves the API at the root of a custom domain, with no stage prefix in the cookie paths', () => {
    const stage = resolveStage(
      context({
        stage: 'prod',
        domainName: 'api.acme.com',
        certificateArn: 'arn:aws:acm:sa-east-1:123456789012:certificate/0a1b2c3d',
        hostedZoneId: 'Z0123456789ABC',
        hostedZoneName: 'acme.com',
      }),
    );
    expect(stage.customDomain).toEqual({
      domainName: 'api.acme.com',
      certificateArn: 'arn:aws:acm:sa-east-1:123456789012:certificate/0a1b2c3d',
      hostedZone: { id: 'Z0123456789ABC', name: 'acme.com' },
    });
  });

  it('takes the SES identity as the sender address or a domain it belongs to', () => {
    expect(resolveStage(context({ mailFrom: 'no-reply@mail.acme.com' })).mailIdentity).toBe('mail.acme.com');
    expect(resolveStage(context({ mailFrom: 'no-reply@mail.acme.com', mailIdentity: 'acme.com' })).mailIdentity).toBe('acme.com');
    expect(resolveStage(context({ mailFrom: 'no-reply@mail.acme.com', mailIdentity: 'no-reply@mail.acme.com' })).mailIdentity).toBe('no-reply@mail.acme.com');
  });

  it('sends alarms to a given topic, or creates one with an e-mail subscription', () => {
    const topicArn = 'arn:aws:sns:us-east-1:123456789012:ops';
    expect(resolveStage(context({ stage: 'prod', alarmTopicArn: topicArn }))).toMatchObject({ alarmTopicArn: topicArn, createAlarmTopic: false });
    expect(resolveStage(context({ alarmEmail: 'ops@acme.com' }))).toMatchObject({ alarmEmail: 'ops@acme.com', createAlarmTopic: true });
  });

  it('takes the per-deployment values from context', () => {
    const jwks = { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x', y: 'y' }] };
    const stage = resolveStage(
      context({
        stage: 'prod',
        allowedOrigins: 'https://app.acme.com, https://admin.acme.com',
        appUrl: 'https://app.acme.com',
        mailFrom: 'no-reply@acme.com',
        jwtPublicKeys: JSON.stringify(jwks, null, 2),
        authorizerCacheTtlSeconds: '0',
      }),
    );
    expect(stage).toMatchObject({
      allowedOrigins: ['https://app.acme.com', 'https://admin.acme.com'],
      appUrl: 'https://app.acme.com',
      mailFrom: 'no-reply@acme.com',
      jwtPublicKeys: JSON.stringify(jwks),
    });
  });

  it.each([
    [{ stage: 'staging' }, /Unknown stage/],
    [{ jwtPublicKeys: 'not json' }, /not valid JSON/],
    [{ jwtPublicKeys: '{"kty":"EC"}' }, /JWK set/],
    [{ allowedOrigins: '*' }, /bare origin/],
    [{ allowedOrigins: 'https://app.acme.com/' }, /bare origin/],
    [{ appUrl: 'https://app.acme.com/console/' }, /without a trailing slash/],
    [{ appUrl: 'http://app.acme.com' }, /https URL/],
    [{ mailFrom: 'nobody' }, /not an e-mail address/],
    [{ authorizerCacheTtlSeconds: '60' }, /never cached/],
    [{ domainName: 'api.acme.com' }, /both context "domainName" and "certificateArn"/],
    [{ domainName: 'api.acme.com', certificateArn: 'arn:aws:iam::123456789012:server-certificate/x' }, /ARN of acm/],
    [{ domainName: 'not a domain', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/x' }, /not a domain name/],
    [{ domainName: 'api.acme.com', certificateArn: 'arn:aws:acm:us-east-1:1:certificate/x', hostedZoneId: 'Z1' }, /go together/],
    [{ domainName: 'api.acme.com', certificateArn: 'arn:aws:acm:us-east-1:1:certificate/x', hostedZoneId: 'Z1', hostedZoneName: 'other.com' }, /not inside/],
    [{ mailFrom: 'no-reply@acme.com', mailIdentity: 'other.com' }, /neither/],
    [{ mailFrom: 'no-reply@acme.com', mailIdentity: 'cme.com' }, /neither/],
    [{ alarmEmail: 'ops' }, /not an e-mail address/],
    [{ alarmTopicArn: 'ops-topic' }, /ARN of sns/],
    [{ alarmTopicArn: 'arn:aws:sns:us-east-1:1:ops', alarmEmail: 'ops@acme.com' }, /not both/],
  ])('refuses %o', (values, message) => {
    expect(() => resolveStage(context(values))).toThrow(message);
  });
});

describe('the browser entry', () => {
  const browser = {
    origin: 'https://d111111abcdef8.cloudfront.net',
    appUrl: 'https://d111111abcdef8.cloudfront.net/console',
    edgeSecret: 'edge-secret-of-the-distribution',
  };

  it("allows the console's origin first (the one a gateway response grants), then the stage's others", () => {
    expect(allowedOrigins(resolveStage(context({})), browser)).toEqual([browser.origin, LOCAL_APP_ORIGIN]);
    expect(allowedOrigins(resolveStage(context({ allowedOrigins: 'https://app.acme.com' })), browser)).toEqual([browser.origin, 'https://app.acme.com']);
  });

  it("gives the functions the console's base URL and no cookie path prefix, unless appUrl is given", () => {
    expect(functionEnvironment(resolveStage(context({})), browser)).toMatchObject({
      ALLOWED_ORIGINS: `${browser.origin},${LOCAL_APP_ORIGIN}`,
      APP_URL: browser.appUrl,
      PATH_PREFIX: '',
      EDGE_SECRET: browser.edgeSecret,
    });
    expect(functionEnvironment(resolveStage(context({ appUrl: 'https://admin.acme.com/console' })), browser).APP_URL).toBe('https://admin.acme.com/console');
  });
});

describe('Data', () => {
  it('retains the table and turns deletion protection on when asked (prod)', () => {
    const stack = new Stack();
    new Data(stack, 'Data', { removalPolicy: RemovalPolicy.RETAIN, deletionProtection: true });
    const template = Template.fromStack(stack);
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })],
      }),
    });
  });
});

describe('Mail', () => {
  it('allows ses:SendEmail on the configured identity only, and only as the configured sender', () => {
    const stack = new Stack();
    const fn = new LambdaFunction(stack, 'Mailer', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline('export const handler = async () => {};'),
    });
    new Mail(stack, 'Mail', { mailFrom: 'no-reply@mail.acme.com', identity: 'mail.acme.com' }).grantSend(fn);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: 'ses:SendEmail',
            Resource: {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':identity/mail.acme.com']],
            },
            Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@mail.acme.com' } },
          },
        ],
      },
    });
  });
});

describe('table actions', () => {
  /** The DynamoDB action(s) each document-client command needs. */
  const ACTIONS_OF: Record<string, string[]> = {
    GetCommand: ['dynamodb:GetItem'],
    BatchGetCommand: ['dynamodb:BatchGetItem'],
    QueryCommand: ['dynamodb:Query'],
    PutCommand: ['dynamodb:PutItem'],
    UpdateCommand: ['dynamodb:UpdateItem'],
    DeleteCommand: ['dynamodb:DeleteItem'],
    BatchWriteCommand: ['dynamodb:BatchWriteItem'],
    // The tenant jobs' worker alone (lib/tenant-jobs/repository).
    ScanCommand: ['dynamodb:Scan'],
    // Authorized item by item: the actions of its Put, Update, Delete and ConditionCheck.
    TransactWriteCommand: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
    TransactGetCommand: ['dynamodb:GetItem'],
  };

  function sources(directory: string): string[] {
    return readdirSync(fromRoot(directory), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => path.join(entry.parentPath, entry.name));
  }

  it('lets the manifest declare every action behind the DynamoDB commands the functions import, and no action they never use', () => {
    const used = new Set<string>();
    for (const file of [...sources('lib'), ...sources('functions')]) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@aws-sdk\/(?:lib-dynamodb|client-dynamodb)'/g)) {
        for (const name of (match[1] ?? '').split(',').map(
          (item) =>
            item
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0] ?? '',
        )) {
          if (!name.endsWith('Command')) continue;
          const actions = ACTIONS_OF[name];
          expect(actions, `${name} in ${path.relative(fromRoot('.'), file)} has no known IAM action`).toBeDefined();
          for (const action of actions ?? []) used.add(action);
        }
      }
    }
    const declarable = new Set<string>([...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS].map((action) => `dynamodb:${action}`));
    expect([...used].sort()).toEqual([...declarable].sort());
  });
});
