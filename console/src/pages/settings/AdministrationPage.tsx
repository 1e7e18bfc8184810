import { isProblem } from '../../api/problems';
import { useMe } from '../../api/auth';
import { useUsers } from '../../api/users';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { useMessages } from '../../i18n';
import { ApiKeysSection } from '../api-keys/ApiKeysSection';
import { AuditSection } from '../audit/AuditSection';
import { InvitationsSection } from '../users/InvitationsSection';
import { adminMessages } from './messages';
import { PolicySection } from './PolicySection';
import { StockLowSection } from './StockLowSection';
import { TenantsSection } from '../tenants/TenantsSection';
import { UsersSection } from '../users/UsersSection';
import { WebhooksSection } from '../webhooks/WebhooksSection';

/**
 * Administration. GET /auth/me does not say the role, so the page asks the first administrator
 * route (the users' first page): a member's 403 shows the API's reason instead of the sections.
 */
export default function AdministrationPage() {
  const t = useMessages(adminMessages);
  const me = useMe();
  const access = useUsers(undefined);
  return (
    <Page title={t.title}>
      {access.isPending ? <SkeletonRows rows={4} columns={4} /> : null}
      {access.error ? <ProblemAlert error={access.error} {...(isProblem(access.error, 403) ? {} : { onRetry: () => void access.refetch() })} /> : null}
      {access.data ? (
        <>
          <UsersSection meId={me.data?.id} />
          <InvitationsSection />
          <ApiKeysSection />
          <WebhooksSection />
          <AuditSection />
          {me.data ? <PolicySection tenantId={me.data.tenantId} /> : null}
          {me.data ? <StockLowSection tenantId={me.data.tenantId} /> : null}
          <TenantsSection />
        </>
      ) : null}
    </Page>
  );
}
