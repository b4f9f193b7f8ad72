// A report table as a CSV file the browser downloads: RFC 4180 with CRLF and a header row, cells that a
// spreadsheet would run as a formula prefixed with ', as the API's own exports do (docs/api-decisions.md).
export type Column<Row> = { label: string; value: (row: Row) => string | number | null };

function cell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvText<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => cell(column.label)), ...rows.map((row) => columns.map((column) => cell(column.value(row))))];
  return lines.map((line) => line.join(',')).join('\r\n') + '\r\n';
}

export function downloadCsv<Row>(filename: string, columns: readonly Column<Row>[], rows: readonly Row[]): void {
  const url = URL.createObjectURL(new Blob([csvText(columns, rows)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}
