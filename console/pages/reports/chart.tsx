// A chart drawn by chart.js (bundled with the console, no CDN), always with a text summary and the same
// figures as a table for screen readers and keyboard users (the canvas itself is hidden from them).
import { useEffect, useRef } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  Tooltip,
} from 'chart.js';
import { ReportTable } from './table.js';
import type { Column } from './csv.js';

Chart.register(BarController, BarElement, CategoryScale, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip);

export type Series = { label: string; values: (number | null)[] };

const COLOURS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed'];

export function ReportChart(props: {
  title: string;
  kind: 'line' | 'bar';
  labels: string[];
  series: Series[];
  summary: string;
  file: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: props.kind,
      data: {
        labels: props.labels,
        datasets: props.series.map((series, index) => ({
          label: series.label,
          data: series.values,
          borderColor: COLOURS[index % COLOURS.length],
          backgroundColor: COLOURS[index % COLOURS.length],
        })),
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false },
    });
    return () => chart.destroy();
  }, [props.kind, props.labels, props.series]);
  const columns: Column<number>[] = [
    { label: 'Period', value: (index) => props.labels[index] ?? '' },
    ...props.series.map((series) => ({ label: series.label, value: (index: number) => series.values[index] ?? null })),
  ];
  return (
    <figure class="report-chart">
      <figcaption>
        <h2>{props.title}</h2>
        <p>{props.summary}</p>
      </figcaption>
      <div class="chart-box" aria-hidden="true">
        <canvas ref={canvas} />
      </div>
      <details>
        <summary>Data table: {props.title}</summary>
        <ReportTable title={`${props.title} data`} file={props.file} columns={columns} rows={props.labels.map((_, index) => index)} />
      </details>
    </figure>
  );
}
