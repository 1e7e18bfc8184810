import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useProductByGtin } from '../../api/inventory';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { inventoryMessages } from './messages';

const digitsOnly = (text: string) => text.replace(/\D/g, '');

/**
 * The field a USB barcode scanner types into (digits, then Enter): Enter looks the GTIN up
 * (GET /inventory/products?gtin=…, any status, one read) and opens the product's page, or says
 * no product has it and empties the field for the next scan. A code the API refuses (a wrong
 * check digit) is said beside the field.
 */
export function BarcodeLookup() {
  const t = useMessages(inventoryMessages);
  const [, navigate] = useLocation();
  const [gtin, setGtin] = useState('');
  const [notFound, setNotFound] = useState<string | undefined>();
  const lookup = useProductByGtin({
    onSuccess: (product, scanned) => {
      if (product) {
        navigate(`/inventory/products/${product.id}`);
        return;
      }
      setNotFound(scanned);
      setGtin('');
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (gtin === '' || lookup.isPending) return;
    setNotFound(undefined);
    lookup.mutate(gtin);
  };
  const server = fieldErrors(lookup.error);
  return (
    <form role="search" className="barcode-form" onSubmit={onSubmit} noValidate aria-label={t.barcodeSearch}>
      <TextField
        label={t.barcode}
        value={gtin}
        onValueChange={(value) => {
          setNotFound(undefined);
          lookup.reset();
          setGtin(value);
        }}
        mask={digitsOnly}
        inputMode="numeric"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={14}
        hint={t.barcodeHint}
        error={server.gtin}
      />
      <button type="submit" className="button secondary" disabled={lookup.isPending}>
        {t.findBarcode}
      </button>
      {lookup.error && !server.gtin ? <ProblemAlert error={lookup.error} /> : null}
      <p role="status" className={notFound ? 'alert alert-warn' : 'visually-hidden'}>
        {notFound ? t.barcodeNotFound(notFound) : ''}
      </p>
    </form>
  );
}
