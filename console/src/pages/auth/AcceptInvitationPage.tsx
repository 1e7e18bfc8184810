import { Page } from '../../components/Page';

/** Not built yet. */
export default function AcceptInvitationPage() {
  return <Page title="AcceptInvitationPage">{null}</Page>;
}
