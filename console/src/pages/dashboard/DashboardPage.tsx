import { Page } from '../../components/Page';
import { useMessages } from '../../i18n';
import { CoverageWidget } from './CoverageWidget';
import { dashboardMessages } from './messages';
import { WarehouseWidget } from './WarehouseWidget';
import './dashboard.css';

/** The home page: stock coverage and stock by warehouse, each one query of its own. */
export default function DashboardPage() {
  const t = useMessages(dashboardMessages);
  return (
    <Page title={t.title}>
      <CoverageWidget />
      <WarehouseWidget />
    </Page>
  );
}
