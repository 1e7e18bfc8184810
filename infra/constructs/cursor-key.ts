import { type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { MIN_CURSOR_SECRET_LENGTH } from '../../lib/secrets';

export interface CursorKeyProps {
  removalPolicy: RemovalPolicy;
}

/**
 * The key that seals page cursors (HMAC-SHA256, lib/domain/cursor): a cursor is bound to the
 * tenant and the list's filters, so an edited or foreign one is refused.
 *
 * Secrets Manager generates it at the first deploy, and it never appears in a template or a
 * synth output. Rotation: put a new random value in the secret
 * (`aws secretsmanager put-secret-value --secret-id <CursorKeySecretArn> --secret-string "$(openssl rand -base64 48)"`).
 * Cursors handed out before it are then refused with a 400 that says to start again without
 * one; warm containers keep the old key until they recycle.
 */
export class CursorKey extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string, props: CursorKeyProps) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Key that seals the API page cursors (generated; rotate by putting a new random value)',
      generateSecretString: { passwordLength: 2 * MIN_CURSOR_SECRET_LENGTH, excludePunctuation: true },
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotating it only ends the page cursors handed out before (their lists start again from the first page); a rotation function would add a Lambda for a one-command operator step (docs/deploy.md).',
    });
  }

  /** For the functions that page with cursors (and only those): where the key is, and read access to it. */
  bindSealer(fn: LambdaFunction): void {
    fn.addEnvironment('CURSOR_SECRET_ID', this.secret.secretArn);
    this.secret.grantRead(fn);
  }
}
