import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Capability } from '../../lib/routes';
import type { CursorKey } from './cursor-key';
import type { Exports } from './exports';
import type { Imports } from './imports';
import type { Mail } from './mail';
import type { SigningKey } from './signing-key';
import type { TenantJobs } from './tenant-jobs';

/** What the capabilities are granted on. */
export interface CapabilityDependencies {
  /** The stage's public keys (JWT_PUBLIC_KEYS), for the routes that verify a token themselves. */
  jwtPublicKeys: string;
  mail: Mail;
  signingKey: SigningKey;
  cursorKey: CursorKey;
  imports: Imports;
  exportJobs: Exports;
  tenantJobs: TenantJobs;
}

type Grant = (fn: NodejsFunction, deps: CapabilityDependencies) => void;

/**
 * The one table of what each capability a manifest entry `uses` (lib/routes/types.ts,
 * `Capability`) grants its function, applied in this order. A new AWS resource a route needs is
 * a capability here and a word in its entry, not a flag and another `if`.
 */
export const CAPABILITY_GRANTS: Record<Capability, Grant> = {
  'verification-keys': (fn, deps) => fn.addEnvironment('JWT_PUBLIC_KEYS', deps.jwtPublicKeys),
  mail: (fn, deps) => deps.mail.grantSend(fn),
  'signing-key': (fn, deps) => deps.signingKey.bindSigner(fn),
  'cursor-key': (fn, deps) => deps.cursorKey.bindSealer(fn),
  'import-uploads': (fn, deps) => deps.imports.bindUploader(fn),
  'export-queue': (fn, deps) => deps.exportJobs.bindStarter(fn),
  'export-downloads': (fn, deps) => deps.exportJobs.bindDownloadSigner(fn),
  'tenant-job-queue': (fn, deps) => deps.tenantJobs.bindStarter(fn),
  'tenant-export-downloads': (fn, deps) => deps.tenantJobs.bindExportReader(fn),
};

/** Grants `fn` every capability `entry` uses, in the table's order. */
export function grantCapabilities(fn: NodejsFunction, entry: { uses?: readonly Capability[] }, deps: CapabilityDependencies): void {
  for (const [capability, grant] of Object.entries(CAPABILITY_GRANTS) as [Capability, Grant][]) if (entry.uses?.includes(capability)) grant(fn, deps);
}
