// Reports → Costs: what messages cost, as the provider reported it (issue 36): outbound messages and the billable
// ones by pricing category for the period (analyticsMessagesByCategory), a chart of billable messages per day and
// category, and both tables as CSV. Messages whose pricing was never reported are not counted (docs/api-decisions.md).
import { useMemo } from 'preact/hooks';
import { gql } from '@urql/core';
import { useQuery } from '@urql/preact';
import { ErrorNote } from '../../ui.js';
import { ReportChart } from './chart.js';
import { ReportTable } from './table.js';

const COSTS = gql`
  query Costs($from: DateTime!, $to: DateTime!) {
    analyticsMessagesByCategory(from: $from, to: $to) {
      time_zone
      totals { category messages billable }
      days { day category messages billable }
    }
  }
`;

type Count = { category: string; messages: number; billable: number };
type Day = Count & { day: string };
type Answer = { analyticsMessagesByCategory: { time_zone: string; totals: Count[]; days: Day[] } | null };

export function CostsSection({ from, to }: { from: string; to: string }) {
  const variables = useMemo(() => ({ from, to }), [from, to]);
  const [{ data, error }] = useQuery<Answer>({ query: COSTS, variables });
  const costs = data?.analyticsMessagesByCategory;
  const labels = useMemo(() => [...new Set(costs?.days.map((row) => row.day))], [costs]);
  const series = useMemo(
    () =>
      (costs?.totals ?? []).map(({ category }) => ({
        label: `Billable ${category}`,
        values: labels.map((day) => costs?.days.find((row) => row.day === day && row.category === category)?.billable ?? 0),
      })),
    [costs, labels],
  );
  const billable = costs?.totals.reduce((sum, row) => sum + row.billable, 0) ?? 0;
  const messages = costs?.totals.reduce((sum, row) => sum + row.messages, 0) ?? 0;
  return (
    <section aria-labelledby="costs-heading" class="report-costs">
      <h2 id="costs-heading">Costs</h2>
      <ErrorNote error={error} />
      {costs ? (
        <>
          <p>
            {billable} of {messages} outbound messages with reported pricing were billable (days in {costs.time_zone}).
          </p>
          <ReportChart
            title="Billable messages by day and category"
            kind="bar"
            labels={labels}
            series={series}
            summary={
              costs.totals.map((row) => `${row.category}: ${row.billable} billable of ${row.messages}`).join('; ') || 'No priced messages.'
            }
            file="billable-by-day.csv"
          />
          <ReportTable
            title="Messages by category"
            file="messages-by-category.csv"
            rows={costs.totals}
            columns={[
              { label: 'Category', value: (row) => row.category },
              { label: 'Messages', value: (row) => row.messages },
              { label: 'Billable', value: (row) => row.billable },
            ]}
          />
          <ReportTable
            title="Messages by day and category"
            file="messages-by-day.csv"
            rows={costs.days}
            columns={[
              { label: 'Day', value: (row) => row.day },
              { label: 'Category', value: (row) => row.category },
              { label: 'Messages', value: (row) => row.messages },
              { label: 'Billable', value: (row) => row.billable },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
