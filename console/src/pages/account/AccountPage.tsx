import { Page } from '../../components/Page';

/** Not built yet. */
export default function AccountPage() {
  return <Page title="AccountPage">{null}</Page>;
}
