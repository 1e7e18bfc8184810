import { useRef, useState, type FormEvent } from 'react';
import { idempotencyKey } from '../../api/client';
import { useRecordMovement, type Product } from '../../api/inventory';
import { fieldErrors } from '../../api/problems';
import { SelectField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useLocale, useMessages } from '../../i18n';
import {
  checkMovement,
  movementTypesFor,
  QUANTITY_PLACES,
  UNIT_COST_PLACES,
  unitCostRule,
  type MovementErrors,
  type MovementInput,
  type MovementProblem,
  type MovementType,
} from './movement';
import { inventoryMessages, type InventoryTexts } from './messages';

export interface WarehouseOption {
  id: string;
  name: string;
}

const EMPTY: Omit<MovementInput, 'warehouseId' | 'type'> = { quantity: '', unitCost: '', occurredAt: '' };

function problemText(t: InventoryTexts, problem: MovementProblem | undefined, places: number): string | undefined {
  switch (problem) {
    case undefined:
      return undefined;
    case 'required':
      return t.required;
    case 'places':
      return t.tooManyPlaces(places);
    case 'positive':
      return t.mustBePositive;
    case 'negative':
      return t.mustNotBeNegative;
    case 'invalid':
      return t.invalidNumber;
  }
}

/**
 * Records a movement of one product (POST /inventory/movements). One Idempotency-Key per open
 * form: kept across a failed submit, a retry and a double click, renewed only after success, so
 * the server records each submit once. After success the balances and the history are
 * refreshed and a status line says so. An INACTIVE product is offered only the types it takes
 * (OUT and ADJUSTMENT), with a warning that says why before anything is sent.
 */
export function MovementForm({ productId, status, warehouses }: { productId: string; status: Product['status']; warehouses: readonly WarehouseOption[] }) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const [chosen, setType] = useState<MovementType>('IN');
  // The product may become inactive while the form is open (edited above): a type it no longer takes gives way to the first it does.
  const types = movementTypesFor(status);
  const type = types.includes(chosen) ? chosen : (types[0] ?? chosen);
  const inactive = status === 'INACTIVE';
  const [warehouseId, setWarehouseId] = useState(warehouses.length === 1 ? (warehouses[0]?.id ?? '') : '');
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<MovementErrors>({});
  const [recorded, setRecorded] = useState<string | undefined>();
  const key = useRef(idempotencyKey());
  // Set on success until a field changes: the second click of a double click records nothing.
  const unchangedSinceSuccess = useRef(false);

  const record = useRecordMovement(productId, {
    onSuccess: (movement) => {
      key.current = idempotencyKey();
      unchangedSinceSuccess.current = true;
      setValues(EMPTY);
      setRecorded(t.movementRecorded(movement.type));
    },
  });

  const edit = (change: () => void) => {
    unchangedSinceSuccess.current = false;
    setRecorded(undefined);
    change();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (record.isPending || unchangedSinceSuccess.current) return;
    const checked = checkMovement(productId, { type, warehouseId, ...values }, locale);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    record.mutate({ key: key.current, body: checked.body });
  };

  const server = fieldErrors(record.error);
  const costRule = unitCostRule(type);
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="movement-form-title">
      <h2 id="movement-form-title">{t.newMovement}</h2>
      {warehouses.length === 0 ? <p className="alert alert-warn">{t.needWarehouse}</p> : null}
      {inactive ? <p className="alert alert-warn">{t.inactiveMovements}</p> : null}
      {record.error ? <ProblemAlert error={record.error} /> : null}
      <div className="form-row">
        <SelectField
          label={t.type}
          value={type}
          onValueChange={(value) => edit(() => setType(value as MovementType))}
          options={types.map((value) => ({ value, label: t.typeNames(value) }))}
          error={server.type}
          hint={[inactive ? t.inactiveTypesHint : '', type === 'ADJUSTMENT' ? t.adjustmentHint : ''].filter(Boolean).join(' ') || undefined}
        />
        <SelectField
          label={t.warehouse}
          value={warehouseId}
          onValueChange={(value) => edit(() => setWarehouseId(value))}
          options={[{ value: '', label: t.chooseWarehouse }, ...warehouses.map((warehouse) => ({ value: warehouse.id, label: warehouse.name }))]}
          error={server.warehouseId ?? problemText(t, errors.warehouseId, 0)}
          required
        />
      </div>
      <div className="form-row">
        <TextField
          label={t.quantity}
          value={values.quantity}
          onValueChange={(quantity) => edit(() => setValues((current) => ({ ...current, quantity })))}
          inputMode="decimal"
          autoComplete="off"
          required
          hint={t.quantityHint(QUANTITY_PLACES)}
          error={server.quantity ?? problemText(t, errors.quantity, QUANTITY_PLACES)}
        />
        {costRule === 'refused' ? null : (
          <TextField
            label={t.unitCost}
            value={values.unitCost}
            onValueChange={(unitCost) => edit(() => setValues((current) => ({ ...current, unitCost })))}
            inputMode="decimal"
            autoComplete="off"
            required={costRule === 'required'}
            hint={costRule === 'required' ? t.unitCostHint(UNIT_COST_PLACES) : t.unitCostOptionalHint}
            error={server.unitCost ?? problemText(t, errors.unitCost, UNIT_COST_PLACES)}
          />
        )}
        <TextField
          label={t.occurredAt}
          type="datetime-local"
          value={values.occurredAt}
          onValueChange={(occurredAt) => edit(() => setValues((current) => ({ ...current, occurredAt })))}
          hint={t.occurredAtHint}
          error={server.occurredAt ?? problemText(t, errors.occurredAt, 0)}
        />
      </div>
      <button type="submit" className="button primary" disabled={record.isPending || warehouses.length === 0}>
        {t.recordMovement}
      </button>
      <p role="status" className={recorded ? 'alert alert-ok' : 'visually-hidden'}>
        {recorded ?? ''}
      </p>
    </form>
  );
}
