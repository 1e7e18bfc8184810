import { useState } from 'react';
import { createWarehouse, useWarehouses } from '../../api/inventory';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { cursorAt, Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDate } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { CreateForm } from './CreateForm';
import { inventoryMessages } from './messages';

/** The tenant's warehouses (by name, Link-header pages) and the form that creates one. */
export function Warehouses() {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursorAt(cursors, page);
  const list = useWarehouses(cursor);
  const onPage = (next: number) => {
    const nextCursor = list.data?.nextCursor;
    if (next > page && nextCursor) setCursors((current) => [...current.slice(0, page), nextCursor]);
    setPage(next);
  };
  return (
    <section className="card" aria-labelledby="warehouses-title">
      <h2 id="warehouses-title">{t.warehouses}</h2>
      <CreateForm
        title={t.newWarehouse}
        submitLabel={t.createWarehouse}
        canSubmit
        create={(key) => createWarehouse(key, name.trim())}
        done={(created) => t.warehouseCreated(created.name)}
        onCreated={() => setName('')}
      >
        {(error) => <TextField label={t.warehouseName} value={name} onValueChange={setName} required autoComplete="off" error={fieldErrors(error).name} />}
      </CreateForm>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={3} columns={2} />
      ) : list.data && list.data.items.length === 0 && page === 1 ? (
        <EmptyState title={t.noWarehouses} hint={t.noWarehousesHint} />
      ) : list.data ? (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{t.warehousesCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.name}</th>
                  <th scope="col">{t.createdAt}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((warehouse) => (
                  <tr key={warehouse.id}>
                    <td>{warehouse.name}</td>
                    <td>{formatDate(warehouse.createdAt, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} hasNext={Boolean(list.data.nextCursor)} onPage={onPage} label={t.warehousesPager} />
        </>
      ) : null}
    </section>
  );
}
