import { Page } from '../../components/Page';
import { useMessages } from '../../i18n';
import { ChangePasswordSection } from './ChangePasswordSection';
import { accountMessages } from './messages';
import { MyDataSection } from './MyDataSection';
import { SecondFactorSection } from './SecondFactorSection';
import { SessionsSection } from './SessionsSection';

/** The signed-in user's own account: sessions, password, second factor, a copy of their data. */
export default function AccountPage() {
  const t = useMessages(accountMessages);
  return (
    <Page title={t.title}>
      <SessionsSection />
      <ChangePasswordSection />
      <SecondFactorSection />
      <MyDataSection />
    </Page>
  );
}
