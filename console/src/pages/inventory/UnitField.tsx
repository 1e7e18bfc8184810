import { SelectField } from '../../components/Field';
import { useMessages } from '../../i18n';
import { inventoryMessages } from './messages';
import { PRODUCT_UNITS, type ProductUnit } from './product';

/** A product's unit: a select of the API's units, each with its name (`KG (quilograma)`). */
export function UnitField({ value, onValueChange, error }: { value: ProductUnit; onValueChange: (unit: ProductUnit) => void; error?: string | undefined }) {
  const t = useMessages(inventoryMessages);
  return (
    <SelectField
      label={t.unit}
      value={value}
      onValueChange={(unit) => onValueChange(unit as ProductUnit)}
      options={PRODUCT_UNITS.map((unit) => ({ value: unit, label: t.unitOption(unit) }))}
      hint={t.unitHint}
      error={error}
    />
  );
}
