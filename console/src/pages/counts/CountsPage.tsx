import { Link } from 'wouter';
import { useCounts } from '../../api/counts';
import { useAllWarehouses } from '../../api/inventory';
import { Page } from '../../components/Page';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { useCursorStack } from '../../components/useCursorStack';
import { useMessages } from '../../i18n';
import { CountsTable } from './CountsTable';
import { countMessages } from './messages';
import { StartCount } from './StartCount';
import './counts.css';

/** The warehouses' names by id, for the lists (the first 100, as the pickers read them). */
function useWarehouseNames() {
  const warehouses = useAllWarehouses();
  return { warehouses, names: new Map((warehouses.data?.items ?? []).map((warehouse) => [warehouse.id, warehouse.name])) };
}

/**
 * /inventory/counts — the stock counts (inventários): the form that starts one of a warehouse,
 * the counts in progress first, then every count, newest first, each opening its page.
 */
export default function CountsPage() {
  const t = useMessages(countMessages);
  const { warehouses, names } = useWarehouseNames();
  return (
    <Page title={t.title} actions={<Link href="/inventory">{t.backToInventory}</Link>}>
      <p className="muted">{t.intro}</p>
      <section className="card count-card">
        <h2 id="start-count-title">{t.startTitle}</h2>
        {warehouses.isError ? <ProblemAlert error={warehouses.error} onRetry={() => void warehouses.refetch()} /> : null}
        {warehouses.isPending ? <SkeletonRows rows={2} columns={2} /> : <StartCount warehouses={warehouses.data?.items ?? []} />}
      </section>
      <OpenCounts names={names} />
      <AllCounts names={names} />
    </Page>
  );
}

/** The counts in progress (OPEN): a short list, one page of up to 100. */
function OpenCounts({ names }: { names: ReadonlyMap<string, string> }) {
  const t = useMessages(countMessages);
  const list = useCounts({ status: 'OPEN' }, undefined, 100);
  return (
    <section className="card count-card" aria-labelledby="open-counts-title">
      <h2 id="open-counts-title">{t.openCounts}</h2>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={2} columns={4} />
      ) : list.data && list.data.items.length === 0 ? (
        <p className="muted">{t.noOpenCounts}</p>
      ) : list.data ? (
        <CountsTable caption={t.openCountsCaption} counts={list.data.items} names={names} busy={list.isFetching} />
      ) : null}
    </section>
  );
}

/** Every count, newest first, 20 a page. */
function AllCounts({ names }: { names: ReadonlyMap<string, string> }) {
  const t = useMessages(countMessages);
  const paging = useCursorStack();
  const list = useCounts({}, paging.cursor);
  const nextCursor = list.data?.nextCursor;
  return (
    <section className="card count-card" aria-labelledby="all-counts-title">
      <h2 id="all-counts-title">{t.allCounts}</h2>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={3} columns={4} />
      ) : list.data && list.data.items.length === 0 && paging.page === 1 ? (
        <EmptyState title={t.noCounts} hint={t.noCountsHint} />
      ) : list.data ? (
        <>
          <CountsTable caption={t.allCountsCaption} counts={list.data.items} names={names} busy={list.isFetching} />
          <Pager
            label={t.countsPager}
            page={paging.page}
            hasNext={Boolean(nextCursor)}
            onPage={(page) => {
              if (page < paging.page) paging.previous();
              else if (nextCursor) paging.next(nextCursor);
            }}
          />
        </>
      ) : null}
    </section>
  );
}
