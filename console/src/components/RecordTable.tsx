import type { ReactNode } from 'react';
import { Link } from 'wouter';
import './record-table.css';

/** A column: its header, and what a row shows in it; `nowrap` keeps it on one line (a document, a phone). */
export interface RecordColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  nowrap?: boolean;
}

/**
 * A button of each row: its text, and its accessible name, which names the row (`Edit Acme`);
 * what it does, or (`href`) the row's page it opens, as a link drawn as a button.
 */
export type RecordAction<T> = { text: string; name: (row: T) => string } & ({ onClick: (row: T) => void } | { href: (row: T) => string });

/**
 * One page of a list as a table (companies, suppliers): a caption, a header per column, a row
 * per record, and the row's buttons last, under `actionsHeader`. It scrolls sideways on a
 * phone (`table-wrap`) rather than squeezing the columns.
 */
export function RecordTable<T extends { id: string }>({
  caption,
  rows,
  columns,
  actionsHeader,
  actions,
  busy,
}: {
  caption: string;
  rows: readonly T[];
  columns: readonly RecordColumn<T>[];
  actionsHeader: string;
  actions: readonly RecordAction<T>[];
  busy: boolean;
}) {
  return (
    <div className="table-wrap">
      <table aria-busy={busy || undefined}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
            <th scope="col">{actionsHeader}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((column) => (
                <td key={column.header} className={column.nowrap ? 'record-nowrap' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
              <td>
                <div className="record-actions">
                  {actions.map((action) =>
                    'href' in action ? (
                      <Link key={action.text} href={action.href(row)} className="button secondary" aria-label={action.name(row)}>
                        {action.text}
                      </Link>
                    ) : (
                      <button key={action.text} type="button" className="button secondary" aria-label={action.name(row)} onClick={() => action.onClick(row)}>
                        {action.text}
                      </button>
                    ),
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
