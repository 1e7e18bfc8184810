import { Stack } from 'aws-cdk-lib';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

export interface MailProps {
  /** The sender address (MAIL_FROM of every function). */
  mailFrom: string;
  /** The verified SES identity it sends as: the address itself or its (parent) domain. */
  identity: string;
}

/**
 * The SES sender identity, as configuration. The identity itself (and its DKIM records) is
 * verified by the operator in the SES console or CLI, once per account and region, so it is
 * not a resource of this stack: deleting a dev stack must not un-verify a shared domain.
 * See docs/deploy.md, "E-mail (SES)", for the sandbox.
 */
export class Mail extends Construct {
  readonly mailFrom: string;
  readonly identityArn: string;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.mailFrom = props.mailFrom;
    this.identityArn = Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: props.identity });
  }

  /**
   * Lets a function send e-mail: `ses:SendEmail` on the configured identity only, and only
   * with the configured sender address. (While the account is in the SES sandbox, SES also
   * checks the policy against the verified recipient identities; grant those separately for
   * testing rather than widening this statement.)
   */
  grantSend(fn: IFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.identityArn],
        conditions: { StringEquals: { 'ses:FromAddress': this.mailFrom } },
      }),
    );
  }
}
