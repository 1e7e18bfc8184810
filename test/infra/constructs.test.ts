import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { Data } from '../../infra/constructs/data';
import { grantSendMail } from '../../infra/constructs/functions';
import { PLACEHOLDER_JWT_PUBLIC_KEYS, resolveStage, type ContextReader } from '../../infra/stages';

/** Constructs and stage settings that need no bundling, so no full synth. */

const context =
  (values: Record<string, unknown>): ContextReader =>
  (key) =>
    values[key];

describe('resolveStage', () => {
  it('defaults to dev with the placeholder key set and no authorizer cache', () => {
    const stage = resolveStage(context({}));
    expect(stage).toMatchObject({
      name: 'dev',
      jwtPublicKeys: PLACEHOLDER_JWT_PUBLIC_KEYS,
      removalPolicy: RemovalPolicy.DESTROY,
      deletionProtection: false,
    });
    expect(stage.authorizerCacheTtl.toSeconds()).toBe(0);
  });

  it('retains and protects the data in prod', () => {
    expect(resolveStage(context({ stage: 'prod' }))).toMatchObject({
      name: 'prod',
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
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
        authorizerCacheTtlSeconds: '60',
      }),
    );
    expect(stage).toMatchObject({
      allowedOrigins: ['https://app.acme.com', 'https://admin.acme.com'],
      appUrl: 'https://app.acme.com',
      mailFrom: 'no-reply@acme.com',
      jwtPublicKeys: JSON.stringify(jwks),
    });
    expect(stage.authorizerCacheTtl.toSeconds()).toBe(Duration.minutes(1).toSeconds());
  });

  it.each([
    [{ stage: 'staging' }, /Unknown stage/],
    [{ jwtPublicKeys: 'not json' }, /not valid JSON/],
    [{ jwtPublicKeys: '{"kty":"EC"}' }, /JWK set/],
    [{ allowedOrigins: '*' }, /bare origin/],
    [{ allowedOrigins: 'https://app.acme.com/' }, /bare origin/],
    [{ mailFrom: 'nobody' }, /not an e-mail address/],
    [{ authorizerCacheTtlSeconds: '7200' }, /0 to 3600/],
  ])('refuses %o', (values, message) => {
    expect(() => resolveStage(context(values))).toThrow(message);
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

describe('grantSendMail', () => {
  it('allows ses:SendEmail on the sender domain identity only', () => {
    const stack = new Stack();
    const fn = new LambdaFunction(stack, 'Mailer', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline('export const handler = async () => {};'),
    });
    grantSendMail(fn, 'no-reply@mail.acme.com');
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: 'ses:SendEmail',
            Resource: {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':identity/mail.acme.com']],
            },
          },
        ],
      },
    });
  });
});
