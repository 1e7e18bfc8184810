import { Page } from '../../components/Page';
import { useMessages } from '../../i18n';
import { inventoryMessages } from './messages';
import { Products } from './Products';
import { Warehouses } from './Warehouses';

/** /inventory — the warehouses and the products, each listed, paged and created here. */
export default function InventoryPage() {
  const t = useMessages(inventoryMessages);
  return (
    <Page title={t.title}>
      <Warehouses />
      <Products />
    </Page>
  );
}
