import { CheckboxField, TextField } from '../../components/Field';
import { useMessages } from '../../i18n';
import { QUANTITY_PLACES, UNIT_COST_PLACES } from '../inventory/movement';
import { supplierProductMessages } from './messages';
import { MAX_SUPPLIER_CODE, MAX_SUPPLIER_UNIT, type TermsField, type TermsForm } from './terms';

/** The supplier's terms for a product, as fields: its code and unit, the pack, the last cost, the lead time, the minimum order, the preferred mark. */
export function TermsFields({
  form,
  set,
  errorOf,
}: {
  form: TermsForm;
  set: <K extends TermsField>(field: K) => (value: TermsForm[K]) => void;
  /** The message beside a field (the server's, or the form's own); `places` for a decimal one. */
  errorOf: (field: TermsField, places?: number) => string | undefined;
}) {
  const t = useMessages(supplierProductMessages);
  return (
    <>
      <div className="form-row">
        <TextField
          label={t.supplierCode}
          value={form.supplierCode}
          onValueChange={set('supplierCode')}
          error={errorOf('supplierCode')}
          hint={t.supplierCodeHint}
          autoComplete="off"
          spellCheck={false}
          maxLength={MAX_SUPPLIER_CODE}
        />
        <TextField
          label={t.supplierUnit}
          value={form.unit}
          onValueChange={set('unit')}
          error={errorOf('unit')}
          hint={t.supplierUnitHint}
          autoComplete="off"
          spellCheck={false}
          maxLength={MAX_SUPPLIER_UNIT}
        />
      </div>
      <div className="form-row">
        <TextField
          label={t.unitsPerPack}
          value={form.unitsPerPack}
          onValueChange={set('unitsPerPack')}
          error={errorOf('unitsPerPack', QUANTITY_PLACES)}
          hint={t.unitsPerPackHint}
          inputMode="decimal"
          autoComplete="off"
          required
        />
        <TextField
          label={t.lastCost}
          value={form.lastCost}
          onValueChange={set('lastCost')}
          error={errorOf('lastCost', UNIT_COST_PLACES)}
          hint={t.lastCostHint(UNIT_COST_PLACES)}
          inputMode="decimal"
          autoComplete="off"
        />
      </div>
      <div className="form-row">
        <TextField
          label={t.leadTimeDays}
          value={form.leadTimeDays}
          onValueChange={set('leadTimeDays')}
          error={errorOf('leadTimeDays')}
          hint={t.leadTimeHint}
          inputMode="numeric"
          autoComplete="off"
          required
        />
        <TextField
          label={t.minimumOrder}
          value={form.minimumOrder}
          onValueChange={set('minimumOrder')}
          error={errorOf('minimumOrder', QUANTITY_PLACES)}
          hint={t.minimumOrderHint}
          inputMode="decimal"
          autoComplete="off"
        />
      </div>
      <CheckboxField label={t.preferredBox} checked={form.preferred} onCheckedChange={set('preferred')} />
    </>
  );
}
