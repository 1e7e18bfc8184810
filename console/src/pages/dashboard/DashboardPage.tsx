import { Page } from '../../components/Page';

/** Not built yet. */
export default function DashboardPage() {
  return <Page title="DashboardPage">{null}</Page>;
}
