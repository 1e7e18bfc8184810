import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { idempotencyKey } from '../../api/client';
import { useCounts, useStartCount } from '../../api/counts';
import type { Warehouse } from '../../api/inventory';
import { fieldErrors, isProblem } from '../../api/problems';
import { SelectField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { MAX_COUNT_NOTE } from './count';
import { countMessages } from './messages';

interface StartErrors {
  warehouseId?: string;
  note?: string;
}

/**
 * Starts a count of a warehouse (POST /inventory/counts, its whole stock in scope) with an
 * optional note, then opens its page for scanning. One Idempotency-Key while the form is open:
 * a double click or a retry opens one count. A warehouse already being counted is a 409: said
 * with a link to the count in progress.
 */
export function StartCount({ warehouses }: { warehouses: readonly Warehouse[] }) {
  const t = useMessages(countMessages);
  const [, navigate] = useLocation();
  const [warehouseId, setWarehouseId] = useState(warehouses.length === 1 ? (warehouses[0]?.id ?? '') : '');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<StartErrors>({});
  const key = useRef(idempotencyKey());
  const start = useStartCount({
    onSuccess: (count) => {
      key.current = idempotencyKey();
      navigate(`/inventory/counts/${count.id}`);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    const checked: StartErrors = {};
    if (!warehouseId) checked.warehouseId = t.required;
    if (note.trim().length > MAX_COUNT_NOTE) checked.note = t.tooLong(MAX_COUNT_NOTE);
    setErrors(checked);
    if (checked.warehouseId || checked.note) return;
    start.mutate({ key: key.current, body: { warehouseId, ...(note.trim() ? { note: note.trim() } : {}) } });
  };
  const server = fieldErrors(start.error);
  const warehouseName = warehouses.find((warehouse) => warehouse.id === warehouseId)?.name ?? '';
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="start-count-title">
      {warehouses.length === 0 ? <p className="alert alert-warn">{t.needWarehouse}</p> : null}
      {start.error ? <ProblemAlert error={start.error} /> : null}
      {isProblem(start.error, 409) && warehouseId ? <OpenCountLink warehouseId={warehouseId} warehouseName={warehouseName} /> : null}
      <div className="form-row">
        <SelectField
          label={t.warehouse}
          value={warehouseId}
          onValueChange={(value) => {
            start.reset();
            setWarehouseId(value);
          }}
          options={[{ value: '', label: t.chooseWarehouse }, ...warehouses.map((warehouse) => ({ value: warehouse.id, label: warehouse.name }))]}
          hint={t.warehouseHint}
          error={server.warehouseId ?? errors.warehouseId}
          required
        />
        <TextField
          label={t.note}
          value={note}
          onValueChange={setNote}
          autoComplete="off"
          maxLength={MAX_COUNT_NOTE}
          hint={t.noteHint(MAX_COUNT_NOTE)}
          error={server.note ?? errors.note}
        />
      </div>
      <button type="submit" className="button primary count-start" disabled={start.isPending || warehouses.length === 0}>
        {t.startSubmit}
      </button>
    </form>
  );
}

/** The count in progress of a warehouse, when there is one: a link to it. */
function OpenCountLink({ warehouseId, warehouseName }: { warehouseId: string; warehouseName: string }) {
  const t = useMessages(countMessages);
  const open = useCounts({ status: 'OPEN', warehouseId }, undefined, 1);
  const count = open.data?.items[0];
  return count ? (
    <p>
      <Link href={`/inventory/counts/${count.id}`}>{t.continueOpen(warehouseName)}</Link>
    </p>
  ) : null;
}
