// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordTable } from '../src/components/RecordTable';

afterEach(cleanup);

const rows = [
  { id: 'a', name: 'Acme', document: '12.345.678/0001-95' },
  { id: 'b', name: 'Bravo', document: '98.765.432/0001-98' },
];

describe('RecordTable', () => {
  it('draws a caption, a header per column and the actions last, a row per record, and names each button after its row', () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    render(
      <RecordTable
        caption="Suppliers"
        rows={rows}
        busy={false}
        columns={[
          { header: 'Name', cell: (row) => row.name },
          { header: 'Document', cell: (row) => row.document, nowrap: true },
        ]}
        actionsHeader="Actions"
        actions={[
          { text: 'Edit', name: (row) => `Edit ${row.name}`, onClick: onEdit },
          { text: 'Delete', name: (row) => `Delete ${row.name}`, onClick: onDelete },
        ]}
      />,
    );
    const table = screen.getByRole('table', { name: 'Suppliers' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Document', 'Actions']);
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(
      bodyRows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Acme', '12.345.678/0001-95', 'EditDelete'],
      ['Bravo', '98.765.432/0001-98', 'EditDelete'],
    ]);
    expect(within(bodyRows[0] as HTMLElement).getAllByRole('cell')[1]?.className).toBe('record-nowrap');
    expect(table.getAttribute('aria-busy')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Bravo' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit Acme' }));
    expect(onDelete.mock.calls).toEqual([[rows[1]]]);
    expect(onEdit.mock.calls).toEqual([[rows[0]]]);
  });

  it('draws an action with `href` as a link to the row’s page, named after its row', () => {
    render(
      <RecordTable
        caption="Suppliers"
        rows={rows}
        busy={false}
        columns={[{ header: 'Name', cell: (row) => row.name }]}
        actionsHeader="Actions"
        actions={[{ text: 'Products', name: (row) => `Products from ${row.name}`, href: (row) => `/suppliers/${row.id}/products` }]}
      />,
    );
    const link = screen.getByRole('link', { name: 'Products from Bravo' });
    expect(link.getAttribute('href')).toBe('/suppliers/b/products');
    expect(link.textContent).toBe('Products');
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('marks itself busy while a page loads', () => {
    render(<RecordTable caption="Companies" rows={[]} busy columns={[{ header: 'Name', cell: () => '' }]} actionsHeader="Actions" actions={[]} />);
    expect(screen.getByRole('table', { name: 'Companies' }).getAttribute('aria-busy')).toBe('true');
  });
});
