import { useEffect, useRef } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { useCount, useInvalidateAfterClose, type Count } from '../../api/counts';
import { useAllWarehouses } from '../../api/inventory';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { CountOutcome } from './CountOutcome';
import { CountReview } from './CountReview';
import { countMessages } from './messages';
import { ScanScreen } from './ScanScreen';
import { StatusBadge } from './StatusBadge';
import './counts.css';

type View = 'scan' | 'review';

/**
 * /inventory/counts/:id — one count. While it is OPEN: the scanning screen (`?view=scan`, the
 * default, made for a phone and a scanner) or the review with the close (`?view=review`). Once
 * closing, closed or cancelled: what became of it, and its lines with their adjustments.
 */
export default function CountPage() {
  const t = useMessages(countMessages);
  const { locale } = useLocale();
  const { id = '' } = useParams<{ id: string }>();
  const view: View = new URLSearchParams(useSearch()).get('view') === 'review' ? 'review' : 'scan';
  const count = useCount(id);
  const warehouses = useAllWarehouses();
  useRefreshAfterBackgroundClose(count.data?.status);
  const scanning = count.data?.status === 'OPEN' && view === 'scan';
  useScanScreenInView(scanning);
  const back = <Link href="/inventory/counts">{t.backToCounts}</Link>;
  if (count.isPending || count.isError) {
    return (
      <Page title={t.countLoading} actions={back}>
        {count.isError ? <ProblemAlert error={count.error} onRetry={() => void count.refetch()} /> : <SkeletonRows rows={3} columns={2} />}
      </Page>
    );
  }
  const warehouse = warehouses.data?.items.find((item) => item.id === count.data.warehouseId)?.name ?? (warehouses.isPending ? '…' : t.unknownWarehouse);
  const open = count.data.status === 'OPEN';
  return (
    <Page title={t.countTitle(warehouse)} actions={back}>
      <p className="count-summary">
        <StatusBadge status={count.data.status} /> <span>{t.startedOn(formatDateTime(count.data.createdAt, locale))}</span>
        {count.data.note ? <span className="count-summary-note">{count.data.note}</span> : null}
      </p>
      {open ? <CountViews id={id} view={view} /> : <CountOutcome count={count.data} />}
      {open && view === 'scan' ? <ScanScreen count={count.data} /> : <CountReview count={count.data} />}
    </Page>
  );
}

/** The two steps of an open count, as links (the address keeps the step: back and reload stay there). */
function CountViews({ id, view }: { id: string; view: View }) {
  const t = useMessages(countMessages);
  const steps: { view: View; label: string; href: string }[] = [
    { view: 'scan', label: t.scanView, href: `/inventory/counts/${id}` },
    { view: 'review', label: t.reviewView, href: `/inventory/counts/${id}?view=review` },
  ];
  return (
    <nav className="count-views" id={VIEWS_ID} aria-label={t.views}>
      {steps.map((step) => (
        <Link key={step.view} href={step.href} className="count-view" aria-current={step.view === view ? 'page' : undefined}>
          {step.label}
        </Link>
      ))}
    </nav>
  );
}

const VIEWS_ID = 'count-views';
/** A phone's width: the scanning screen is scrolled to fill it. */
const PHONE = '(max-width: 40rem)';

/**
 * On a phone, the scanning screen (the steps, the code field and the last scan) is scrolled to
 * the top of the window: the frame's navigation above it would push the last scan off a 740-px
 * screen. The keyboard is already in the code field (autofocus).
 */
function useScanScreenInView(scanning: boolean) {
  useEffect(() => {
    if (scanning && window.matchMedia(PHONE).matches) document.getElementById(VIEWS_ID)?.scrollIntoView({ block: 'start' });
  }, [scanning]);
}

/** A count seen CLOSING then CLOSED ended in the background: the balances read meanwhile were partial, so inventory reads again. */
function useRefreshAfterBackgroundClose(status: Count['status'] | undefined) {
  const refresh = useInvalidateAfterClose();
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current === 'CLOSING' && status === 'CLOSED') void refresh();
    previous.current = status;
  }, [status, refresh]);
}
