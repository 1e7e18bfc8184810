import { useState } from 'react';
import { createProduct } from '../../api/inventory';
import { fieldErrors, isProblem } from '../../api/problems';
import { TextField } from '../../components/Field';
import { useMessages } from '../../i18n';
import { CreateForm } from './CreateForm';
import { CategoryField } from './CategoryField';
import { inventoryMessages } from './messages';
import type { ProductUnit } from './product';
import { UnitField } from './UnitField';

/** The form that creates a product: its SKU and name, and optionally its unit (UN by default), barcode and category. */
export function CreateProduct() {
  const t = useMessages(inventoryMessages);
  const [sku, setSku] = useState('');
  const [name, setName] = useState('');
  const [unit, setUnit] = useState<ProductUnit>('UN');
  const [gtin, setGtin] = useState('');
  const [categoryId, setCategoryId] = useState('');
  const code = gtin.replace(/\s/g, '');
  return (
    <CreateForm
      title={t.newProduct}
      submitLabel={t.createProduct}
      canSubmit
      create={(key) => createProduct(key, { sku: sku.trim(), name: name.trim(), unit, ...(code ? { gtin: code } : {}), ...(categoryId ? { categoryId } : {}) })}
      done={(created) => t.productCreated(created.sku)}
      onCreated={() => {
        setSku('');
        setName('');
        setUnit('UN');
        setGtin('');
        setCategoryId('');
      }}
    >
      {(error) => (
        <>
          <TextField label={t.sku} value={sku} onValueChange={setSku} required autoComplete="off" error={fieldErrors(error).sku} />
          <TextField label={t.productName} value={name} onValueChange={setName} required autoComplete="off" error={fieldErrors(error).name} />
          <UnitField value={unit} onValueChange={setUnit} error={fieldErrors(error).unit} />
          <TextField
            label={t.gtin}
            value={gtin}
            onValueChange={setGtin}
            hint={t.gtinHint}
            inputMode="numeric"
            autoComplete="off"
            spellCheck={false}
            maxLength={20}
            error={fieldErrors(error).gtin}
          />
          {/* A create's only 404: the category chosen was deleted meanwhile. */}
          <CategoryField
            value={categoryId}
            onValueChange={setCategoryId}
            error={fieldErrors(error).categoryId ?? (isProblem(error, 404) ? t.categoryGone : undefined)}
          />
        </>
      )}
    </CreateForm>
  );
}
