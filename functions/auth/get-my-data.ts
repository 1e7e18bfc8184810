import { myData } from '../../lib/auth/my-data';
import { myDataView } from '../../lib/auth/schemas';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.myData, {}, async ({ principal }) => ok(await myData(principal, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'Everything the service holds about the caller.', body: myDataView },
  description:
    "The caller's portable copy of their data (LGPD Art. 19): the profile, every session not yet expired (live or revoked, with its IP address and User-Agent), the second factor (on or off, since when, recovery codes left), the invitations of their e-mail and those they made, and the newest 5,000 audit entries they are the actor of (`auditEntriesTruncated` and `auditEntriesRest` say where the older ones are). Never a secret: no hash, TOTP secret, token or jti. Signed-in users only, for themselves; 5 requests an hour per user.",
  notes: "the caller's data as one JSON document; 5 an hour per user",
});
