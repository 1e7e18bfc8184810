import { Page } from '../../components/Page';

/** Not built yet. */
export default function InventoryPage() {
  return <Page title="InventoryPage">{null}</Page>;
}
