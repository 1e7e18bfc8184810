/**
 * `npm run create-admin -- --email E --password P [--name N] [--tenant SLUG]`
 *
 * Creates a platform administrator (the profile GET /tenants needs), or promotes the
 * existing user with that e-mail. No public route grants this profile.
 *
 * Store: the local one by default, also while `npm start` runs (it then talks to that
 * DynamoDB Local; otherwise it starts one on $DATA_DIR briefly). `--table NAME` targets a
 * deployed table instead, with the usual AWS credentials and region.
 *
 * A new administrator needs a tenant to belong to: `--tenant` (default `platform`), created
 * on the ENTERPRISE plan when missing.
 */
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { passwordSchema } from '../lib/auth/passwords';
import { emailField, nameField } from '../lib/domain/fields';
import { tenantNameField } from '../lib/tenants/schemas';
import { promoteOrCreateAdmin } from '../lib/admin/create-admin';
import { connectLocalStore } from '../local/store';

const argsSchema = z.object({
  email: emailField,
  password: passwordSchema,
  name: nameField.default('Platform administrator'),
  tenant: tenantNameField.default('platform'),
  table: z.string().min(1).optional(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, tenant: { type: 'string' }, table: { type: 'string' } },
    strict: true,
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
    console.error('usage: npm run create-admin -- --email E --password P [--name N] [--tenant SLUG] [--table DEPLOYED_TABLE]');
    process.exit(2);
  }
  const args = parsed.data;

  let store: { stop: () => Promise<void> } | undefined;
  if (args.table) {
    // A deployed table: only what the repositories need; credentials come from the AWS chain.
    Object.assign(process.env, { TABLE_NAME: args.table, BCRYPT_COST: process.env.BCRYPT_COST ?? '10' });
  } else {
    store = await connectLocalStore();
  }
  try {
    const outcome = await promoteOrCreateAdmin({ email: args.email, password: args.password, name: args.name, tenantName: args.tenant }, Date.now());
    console.log(
      outcome.created
        ? `Created platform administrator ${args.email} in tenant '${outcome.tenantName}' (${outcome.tenantId}).`
        : `Promoted ${args.email} (tenant ${outcome.tenantId}) to platform administrator.`,
    );
  } finally {
    await store?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
