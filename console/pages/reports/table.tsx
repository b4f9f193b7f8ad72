// One report table: a caption, its rows, a CSV download of exactly what it shows, and an empty state.
import { downloadCsv, type Column } from './csv.js';

export function ReportTable<Row>({
  title,
  file,
  columns,
  rows,
}: {
  title: string;
  file: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
}) {
  return (
    <section class="report-table" aria-label={title}>
      <header class="page-header">
        <h2>{title}</h2>
        <button type="button" onClick={() => downloadCsv(file, columns, rows)} disabled={rows.length === 0}>
          Download CSV<span class="visually-hidden"> of {title}</span>
        </button>
      </header>
      {rows.length === 0 ? (
        <p class="empty">Nothing in this period.</p>
      ) : (
        <div class="table-scroll">
          <table class="list">
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th scope="col" key={column.label}>
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={index}>
                  {columns.map((column) => (
                    <td key={column.label}>{column.value(row) ?? '—'}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
