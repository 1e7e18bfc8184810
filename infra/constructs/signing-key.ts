import { type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export interface SigningKeyProps {
  removalPolicy: RemovalPolicy;
}

/**
 * The private key that signs access and refresh tokens (ES256, see `lib/auth/keys.ts`).
 *
 * The operator generates the key pair outside CDK, so the private key never appears in a
 * template, a synth output or the CDK context:
 *
 * 1. Generate an ES256 key pair as JWKs with the same `kid`: `npm run generate-signing-key`.
 * 2. Store the private JWK in this secret:
 *    `aws secretsmanager put-secret-value --secret-id <SigningKeySecretArn output> --secret-string file://private.jwk.json`
 * 3. Deploy with the public half: `cdk deploy -c stage=prod -c jwtPublicKeys='{"keys":[<public JWK>]}'`
 *    (the verifiers, authorizer included, read it from JWT_PUBLIC_KEYS).
 *
 * Rotation: add the new public key to the set and deploy, put the new private key in the
 * secret (warm containers keep the old key until they recycle; both verify), and drop the
 * old public key after the longest refresh lifetime.
 *
 * Until step 2 the secret holds a placeholder with no `kid`, so token-signing functions fail
 * loudly ("The signing key has no kid") instead of signing with something guessable.
 */
export class SigningKey extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string, props: SigningKeyProps) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Private ES256 JWK (with kid) that signs the API tokens; set by the operator',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ placeholder: 'replace with the private signing JWK' }),
        generateStringKey: 'nonce',
      },
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The private key cannot be rotated by a Secrets Manager rotation function alone: its public half must first be published in JWT_PUBLIC_KEYS (a deploy) and the old one kept until the longest refresh lifetime has passed. Rotation is the documented operator procedure (npm run generate-signing-key, docs/deploy.md).',
    });
  }

  /**
   * For the functions that sign tokens (and only those): tells the function where the key
   * is (JWT_SIGNING_KEY_SECRET_ID) and lets it read it.
   */
  bindSigner(fn: LambdaFunction): void {
    fn.addEnvironment('JWT_SIGNING_KEY_SECRET_ID', this.secret.secretArn);
    this.secret.grantRead(fn);
  }
}
