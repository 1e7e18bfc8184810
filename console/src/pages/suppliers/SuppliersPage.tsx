import { Page } from '../../components/Page';

/** Not built yet. */
export default function SuppliersPage() {
  return <Page title="SuppliersPage">{null}</Page>;
}
