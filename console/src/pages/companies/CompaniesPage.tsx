import { Page } from '../../components/Page';

/** Not built yet. */
export default function CompaniesPage() {
  return <Page title="CompaniesPage">{null}</Page>;
}
