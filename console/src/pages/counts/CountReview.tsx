import type { Count } from '../../api/counts';
import { CloseCount } from './CloseCount';
import { CountLines } from './CountLines';
import { UncountedList } from './UncountedList';

/**
 * The review of a count: its totals and lines (largest difference first); while it is open,
 * the products not counted yet and the close; once closed, each line's adjustment. The lines
 * stay mounted when the count closes, so the answer of the close reads them again in place.
 */
export function CountReview({ count }: { count: Count }) {
  const open = count.status === 'OPEN';
  return (
    <>
      <CountLines count={count} mode={open ? 'review' : 'result'} />
      {open ? <UncountedList countId={count.id} /> : null}
      {open ? <CloseCount count={count} /> : null}
    </>
  );
}
