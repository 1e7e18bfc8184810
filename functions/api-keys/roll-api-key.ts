import { apiKeyIdPath, apiKeySecretView, MAX_ROLL_OVERLAP_HOURS, rollApiKeyBody } from '../../lib/api-keys/schemas';
import { rollApiKey } from '../../lib/api-keys/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.rollApiKey, { path: apiKeyIdPath, body: rollApiKeyBody }, async ({ path, body, principal }) =>
  ok(await rollApiKey(principal, path.id, body.expiresInHours, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The key with its new text in `key`, shown this once.', body: apiKeySecretView },
  errors: {
    403: 'The caller is not a tenant administrator.',
    404: "No such API key in the caller's tenant.",
    409: 'The key was rolled or revoked meanwhile.',
  },
  access: 'tenant administrator',
  description: `Gives an API key a new secret (tenant administrators). The text it replaces keeps working for \`expiresInHours\` more (0 to ${MAX_ROLL_OVERLAP_HOURS}; 0 stops it at once), so the systems that hold it can move over; a secret from before that stops now. Every administrator of the tenant is told by e-mail. At most 20 key changes per hour per administrator.`,
  notes: `tenant administrators; new \`key\` shown once; the old one works \`expiresInHours\` more (0–${MAX_ROLL_OVERLAP_HOURS}); 409 on a concurrent roll`,
  example: { path: { id: '3FqjGk6uVtJ2W8yH1bN5xZ0AbCdEfG' }, body: { expiresInHours: 24 } },
});
