import { useRef, useState, type FormEvent } from 'react';
import { idempotencyKey } from '../../api/client';
import { useBalance, type Product, type Warehouse } from '../../api/inventory';
import { fieldErrors } from '../../api/problems';
import { useCreateTransfer, type Transfer } from '../../api/transfers';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { QUANTITY_PLACES } from './movement';
import { inventoryMessages, type InventoryTexts } from './messages';
import { ProductPicker } from './ProductPicker';
import { checkTransfer, haltedCompany, MAX_NOTE, notEnoughStock, takesFractions, type TransferErrors, type TransferProblem } from './transfer';
import { TransferReceipt } from './TransferReceipt';

function problemText(t: InventoryTexts, problem: TransferProblem | undefined, unit: string): string | undefined {
  switch (problem) {
    case undefined:
      return undefined;
    case 'required':
      return t.required;
    case 'places':
      return t.tooManyPlaces(QUANTITY_PLACES);
    case 'positive':
    case 'negative':
      return t.mustBePositive;
    case 'invalid':
      return t.invalidNumber;
    case 'sameWarehouse':
      return t.sameWarehouse;
    case 'whole':
      return t.wholeOnly(unit);
    case 'tooLong':
      return t.tooLong(MAX_NOTE);
  }
}

const EMPTY = { quantity: '', note: '' };

/**
 * Moves a product's stock from one warehouse to another (POST /inventory/transfers): on the
 * product page for that product, on the inventory page for the one picked. The source's
 * balance shows under its select; a refusal for want of stock (409) is said beside the
 * quantity in the user's language, with what is on hand, and nothing moves. After success the
 * status line says what moved, its value and both balances after, and the product's balances,
 * history and transfers read again. One Idempotency-Key per open form, as the movement form's:
 * kept across a failure and its retry, renewed only after success.
 */
export function TransferForm({ product: fixed, warehouses }: { product?: Product; warehouses: readonly Warehouse[] }) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const [picked, setPicked] = useState<Product | undefined>();
  const product = fixed ?? picked;
  const [fromWarehouseId, setFrom] = useState('');
  const [toWarehouseId, setTo] = useState('');
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<TransferErrors>({});
  const [done, setDone] = useState<Transfer | undefined>();
  const key = useRef(idempotencyKey());
  // Set on success until a field changes: the second click of a double click moves nothing.
  const unchangedSinceSuccess = useRef(false);
  const names = new Map(warehouses.map((warehouse) => [warehouse.id, warehouse.name]));
  const source = useBalance(
    product?.id ?? '',
    warehouses.find((warehouse) => warehouse.id === fromWarehouseId),
  );

  const transfer = useCreateTransfer({
    onSuccess: (recorded) => {
      key.current = idempotencyKey();
      unchangedSinceSuccess.current = true;
      setValues(EMPTY);
      setDone(recorded);
    },
  });

  const edit = (change: () => void) => {
    unchangedSinceSuccess.current = false;
    setDone(undefined);
    change();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (transfer.isPending || unchangedSinceSuccess.current) return;
    const checked = checkTransfer({ productId: product?.id ?? '', fromWarehouseId, toWarehouseId, ...values }, product?.unit, locale);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    transfer.mutate({ key: key.current, body: checked.body });
  };

  const unit = product?.unit ?? '';
  const server = fieldErrors(transfer.error);
  const short = notEnoughStock(transfer.error);
  const halted = haltedCompany(transfer.error);
  const onHand = source.data ? formatDecimal(source.data.movement?.balance.quantity ?? 0, locale) : undefined;
  // The warehouse the refused request named, even if the select changed since.
  const refusedFrom = names.get(transfer.variables?.body.fromWarehouseId ?? '') ?? '';
  const options = [{ value: '', label: t.chooseWarehouse }, ...warehouses.map((warehouse) => ({ value: warehouse.id, label: warehouse.name }))];
  return (
    <form className="form transfer-form" onSubmit={onSubmit} noValidate aria-labelledby="transfer-form-title">
      <h2 id="transfer-form-title">{t.transferTitle}</h2>
      <p className="muted">{t.transferIntro}</p>
      {warehouses.length < 2 ? <p className="alert alert-warn">{t.needTwoWarehouses}</p> : null}
      {short ? (
        <p className="alert alert-error" role="alert">
          {t.notEnoughStock}
        </p>
      ) : halted ? (
        <p className="alert alert-error" role="alert">
          {t.companyHalted(halted)}
        </p>
      ) : transfer.error ? (
        <ProblemAlert error={transfer.error} />
      ) : null}
      {fixed ? null : (
        <ProductPicker value={picked} onChange={(chosen) => edit(() => setPicked(chosen))} error={server.productId ?? problemText(t, errors.productId, unit)} />
      )}
      <div className="form-row">
        <SelectField
          label={t.fromWarehouse}
          value={fromWarehouseId}
          onValueChange={(value) => edit(() => setFrom(value))}
          options={options}
          hint={onHand === undefined ? undefined : t.onHandHere(onHand)}
          error={server.fromWarehouseId ?? problemText(t, errors.fromWarehouseId, unit)}
          required
        />
        <SelectField
          label={t.toWarehouse}
          value={toWarehouseId}
          onValueChange={(value) => edit(() => setTo(value))}
          options={options}
          error={server.toWarehouseId ?? problemText(t, errors.toWarehouseId, unit)}
          required
        />
      </div>
      <div className="form-row">
        <TextField
          label={t.transferQuantity}
          value={values.quantity}
          onValueChange={(quantity) => edit(() => setValues((current) => ({ ...current, quantity })))}
          inputMode="decimal"
          autoComplete="off"
          required
          hint={product && !takesFractions(product.unit) ? t.wholeQuantityHint(product.unit) : t.quantityHint(QUANTITY_PLACES)}
          error={
            server.quantity ??
            (short ? t.notEnoughStockField(refusedFrom, formatDecimal(short.onHand, locale), formatDecimal(short.requested, locale)) : undefined) ??
            problemText(t, errors.quantity, unit)
          }
        />
        <TextAreaField
          label={t.note}
          value={values.note}
          onValueChange={(note) => edit(() => setValues((current) => ({ ...current, note })))}
          rows={2}
          maxLength={MAX_NOTE}
          hint={t.noteHint(MAX_NOTE)}
          error={server.note ?? problemText(t, errors.note, unit)}
        />
      </div>
      <button type="submit" className="button primary" disabled={transfer.isPending || warehouses.length < 2}>
        {t.transferSubmit}
      </button>
      <div role="status" className={done ? 'alert alert-ok' : 'visually-hidden'}>
        {done ? <TransferReceipt transfer={done} unit={unit} names={names} /> : null}
      </div>
    </form>
  );
}
