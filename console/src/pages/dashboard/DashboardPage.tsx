import { useState } from 'react';
import { Page } from '../../components/Page';
import { useMessages } from '../../i18n';
import { CoverageWidget } from './CoverageWidget';
import { dashboardMessages } from './messages';
import { WarehouseWidget } from './WarehouseWidget';
import './dashboard.css';

/**
 * The home page: stock coverage and stock by warehouse, each one query of its own, both sent at
 * once. The second card is shown when the first has drawn its answer: the coverage table
 * grows from its skeleton to its rows, and a card already on screen below it would be pushed
 * down (a layout shift, which Lighthouse counts and a reader loses their place in).
 */
export default function DashboardPage() {
  const t = useMessages(dashboardMessages);
  const [coverageDrawn, setCoverageDrawn] = useState(false);
  return (
    <Page title={t.title}>
      <CoverageWidget onDrawn={() => setCoverageDrawn(true)} />
      <div hidden={!coverageDrawn}>
        <WarehouseWidget />
      </div>
    </Page>
  );
}
