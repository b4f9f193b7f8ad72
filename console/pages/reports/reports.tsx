// Reports (/reports): the period's figures with the change from the previous period, conversations and response
// times as charts, the team, the AI agent, campaigns and templates, and what messages cost (costs.tsx), for a date
// range, an interval and filters, in days of the workspace's time zone. Every number comes from the public reports
// queries (docs/reports.md); each table downloads as CSV.
import { useMemo, useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useQuery } from '@urql/preact';
import { ErrorNote, Page } from '../../ui.js';
import { ReportChart } from './chart.js';
import { ReportTable } from './table.js';
import { CostsSection } from './costs.js';
import type { Column } from './csv.js';
import { localLabel, startOfLocalDay } from './zone.js';

const WORKSPACE_ZONE = gql`
  query ReportsZone {
    viewer { workspace { time_zone } }
  }
`;

const FIGURES = `conversations_opened conversations_closed conversations_reopened messages_in messages_out
  first_response_conversations unanswered_conversations first_response_median_seconds first_response_p90_seconds
  first_response_business_median_seconds resolution_conversations resolution_median_seconds resolution_p90_seconds
  resolution_business_median_seconds`;

const REPORTS = gql`
  query Reports($from: DateTime!, $to: DateTime!, $interval: ReportInterval, $assignee_user_id: ID, $team_id: ID, $channel: String) {
    reportConversations(
      from: $from
      to: $to
      interval: $interval
      assignee_user_id: $assignee_user_id
      team_id: $team_id
      channel: $channel
    ) {
      totals { ${FIGURES} }
      previous { ${FIGURES} }
      series { start figures { ${FIGURES} } }
    }
    reportPeople(from: $from, to: $to, assignee_user_id: $assignee_user_id, team_id: $team_id, channel: $channel) {
      rows { user_id name email conversations_handled first_response_median_seconds first_response_business_median_seconds resolution_median_seconds resolution_business_median_seconds open_now }
    }
    reportAgent(from: $from, to: $to, assignee_user_id: $assignee_user_id, team_id: $team_id, channel: $channel) {
      conversations_with_inbound conversations_answered conversations_handed_off handoffs_by_reason { reason count }
      conversations_closed closed_without_person answered_share closed_without_person_share
    }
    reportCampaigns(from: $from, to: $to) {
      rows { campaign_id name status recipients sent delivered read replied_within_24h opted_out failed }
    }
    reportTemplates(from: $from, to: $to, assignee_user_id: $assignee_user_id, team_id: $team_id, channel: $channel) {
      rows { template_name template_language sends delivered read read_rate replies failed billable }
    }
    users { id name email }
    teams { id name }
  }
`;

type Figures = Record<string, number | null>;
type Row = Record<string, string | number | null>;
type Answer = {
  reportConversations: { totals: Figures; previous: Figures; series: { start: string; figures: Figures }[] };
  reportPeople: { rows: Row[] };
  reportAgent: Row & { handoffs_by_reason: { reason: string; count: number }[] };
  reportCampaigns: { rows: Row[] };
  reportTemplates: { rows: Row[] };
  users: { id: string; name: string | null; email: string }[];
  teams: { id: string; name: string }[];
};

const day = (date: Date) => date.toISOString().slice(0, 10);
const minutes = (seconds: number | null | undefined) => (seconds == null ? null : Math.round(seconds / 6) / 10);
const percent = (share: number | null | undefined) => (share == null ? null : `${Math.round(share * 1000) / 10}%`);
type Cell = string | number | null;
const asIs = (value: Cell): Cell => value;
const column = (label: string, key: string, format: (value: number | null) => Cell = asIs): Column<Row> => ({
  label,
  value: (row) => format((row[key] ?? null) as number | null),
});

const CARDS: { label: string; key: string; unit?: 'min' }[] = [
  { label: 'Conversations opened', key: 'conversations_opened' },
  { label: 'Conversations closed', key: 'conversations_closed' },
  { label: 'Reopened', key: 'conversations_reopened' },
  { label: 'Messages in', key: 'messages_in' },
  { label: 'Messages out', key: 'messages_out' },
  { label: 'First response, median', key: 'first_response_median_seconds', unit: 'min' },
  { label: 'First response, p90', key: 'first_response_p90_seconds', unit: 'min' },
  { label: 'First response, median in business hours', key: 'first_response_business_median_seconds', unit: 'min' },
  { label: 'Resolution, median', key: 'resolution_median_seconds', unit: 'min' },
  { label: 'Resolution, median in business hours', key: 'resolution_business_median_seconds', unit: 'min' },
];

function Card({ label, now, before, unit }: { label: string; now: number | null; before: number | null; unit?: 'min' }) {
  const shown = unit ? minutes(now) : now;
  const change = now == null || before == null || before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10;
  return (
    <div class="card">
      <dt>{label}</dt>
      <dd>
        <strong>{shown == null ? '—' : `${shown}${unit ? ' min' : ''}`}</strong>
        <small>{change == null ? 'no previous figure' : `${change > 0 ? '+' : ''}${change}% from the previous period`}</small>
      </dd>
    </div>
  );
}

export function ReportsPage() {
  const today = new Date();
  const [range, setRange] = useState({
    from: day(new Date(today.getTime() - 29 * 86_400_000)),
    to: day(new Date(today.getTime() + 86_400_000)),
  });
  const [interval, setInterval] = useState('day');
  const [assignee, setAssignee] = useState('');
  const [team, setTeam] = useState('');
  const [channel, setChannel] = useState('');
  // The workspace's days: reports default to its time zone, and the range starts and ends at its midnights.
  const [{ data: zoneAnswer }] = useQuery<{ viewer: { workspace: { time_zone: string } } }>({ query: WORKSPACE_ZONE });
  const zone = zoneAnswer?.viewer.workspace.time_zone ?? 'UTC';
  const variables = useMemo(
    () => ({
      from: startOfLocalDay(range.from, zone),
      to: startOfLocalDay(range.to, zone),
      interval,
      assignee_user_id: assignee || null,
      team_id: team || null,
      channel: channel || null,
    }),
    [range, interval, assignee, team, channel, zone],
  );
  const [{ data, fetching, error }] = useQuery<Answer>({ query: REPORTS, variables, pause: !zoneAnswer });
  const conversations = data?.reportConversations;
  const labels = useMemo(
    () => conversations?.series.map((point) => localLabel(point.start, zone, interval === 'hour')) ?? [],
    [conversations, interval, zone],
  );
  const volume = useMemo(
    () =>
      ['conversations_opened', 'conversations_closed', 'conversations_reopened'].map((key) => ({
        label: key.replace('conversations_', '').replace(/^./, (letter) => letter.toUpperCase()),
        values: conversations?.series.map((point) => point.figures[key] ?? 0) ?? [],
      })),
    [conversations],
  );
  const times = useMemo(
    () => [
      {
        label: 'First response median (min)',
        values: conversations?.series.map((point) => minutes(point.figures['first_response_median_seconds'])) ?? [],
      },
      {
        label: 'First response p90 (min)',
        values: conversations?.series.map((point) => minutes(point.figures['first_response_p90_seconds'])) ?? [],
      },
    ],
    [conversations],
  );
  const totals = conversations?.totals;
  const agent = data?.reportAgent;

  return (
    <Page title="Reports">
      <form class="filters report-filters" onSubmit={(event) => event.preventDefault()} aria-label="Report period and filters">
        <label>
          From
          <input type="date" value={range.from} onChange={(event) => setRange({ ...range, from: event.currentTarget.value })} />
        </label>
        <label>
          To (exclusive)
          <input type="date" value={range.to} onChange={(event) => setRange({ ...range, to: event.currentTarget.value })} />
        </label>
        <label>
          Interval
          <select value={interval} onChange={(event) => setInterval(event.currentTarget.value)}>
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="hour">Hour</option>
          </select>
        </label>
        <label>
          Assignee
          <select value={assignee} onChange={(event) => setAssignee(event.currentTarget.value)}>
            <option value="">Everyone</option>
            {data?.users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name ?? user.email}
              </option>
            ))}
          </select>
        </label>
        <label>
          Team
          <select value={team} onChange={(event) => setTeam(event.currentTarget.value)}>
            <option value="">All teams</option>
            {data?.teams.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Channel
          <select value={channel} onChange={(event) => setChannel(event.currentTarget.value)}>
            <option value="">All channels</option>
            <option value="whatsapp">WhatsApp</option>
            <option value="sandbox">Sandbox</option>
          </select>
        </label>
      </form>
      <p class="hint">
        Dates are days in the workspace's time zone, {zone}; times are calendar time (nights and weekends count) unless marked "in business
        hours" (the workspace's hours and holidays). Definitions: docs/reports.md.
      </p>
      <ErrorNote error={error} />
      {fetching && !data ? (
        <p role="status">Loading the reports…</p>
      ) : totals && conversations ? (
        <>
          <section aria-labelledby="overview-title">
            <h2 id="overview-title">Overview</h2>
            <dl class="cards">
              {CARDS.map((card) => (
                <Card
                  key={card.key}
                  label={card.label}
                  unit={card.unit}
                  now={totals[card.key] ?? null}
                  before={conversations.previous[card.key] ?? null}
                />
              ))}
            </dl>
          </section>
          <ReportChart
            title="Conversations"
            kind="bar"
            labels={labels}
            series={volume}
            file="conversations.csv"
            summary={`${totals['conversations_opened']} opened, ${totals['conversations_closed']} closed and ${totals['conversations_reopened']} reopened in the period.`}
          />
          <ReportChart
            title="First response time"
            kind="line"
            labels={labels}
            series={times}
            file="response-times.csv"
            summary={
              totals['first_response_median_seconds'] == null
                ? 'No first response in the period.'
                : `Median ${minutes(totals['first_response_median_seconds'])} min, p90 ${minutes(totals['first_response_p90_seconds'])} min, from ${totals['first_response_conversations']} conversations; ${totals['unanswered_conversations']} still unanswered.`
            }
          />
          <ReportTable
            title="Team"
            file="team.csv"
            rows={data.reportPeople.rows}
            columns={[
              column('Person', 'name'),
              column('Email', 'email'),
              column('Handled', 'conversations_handled'),
              column('First response median (min)', 'first_response_median_seconds', minutes),
              column('… in business hours (min)', 'first_response_business_median_seconds', minutes),
              column('Resolution median (min)', 'resolution_median_seconds', minutes),
              column('… in business hours (min)', 'resolution_business_median_seconds', minutes),
              column('Open now', 'open_now'),
            ]}
          />
          {agent ? (
            <ReportTable
              title="AI agent"
              file="ai-agent.csv"
              rows={[agent]}
              columns={[
                column('Conversations with inbound', 'conversations_with_inbound'),
                column('Answered', 'conversations_answered'),
                column('Answered share', 'answered_share', percent),
                column('Handed off', 'conversations_handed_off'),
                column('Closed without a person', 'closed_without_person'),
                column('Share of closed', 'closed_without_person_share', percent),
              ]}
            />
          ) : null}
          <ReportTable
            title="Hand-offs by reason"
            file="handoffs.csv"
            rows={agent?.handoffs_by_reason ?? []}
            columns={[
              { label: 'Reason', value: (row) => row.reason },
              { label: 'Hand-offs', value: (row) => row.count },
            ]}
          />
          <ReportTable
            title="Campaigns"
            file="campaigns.csv"
            rows={data.reportCampaigns.rows}
            columns={[
              column('Campaign', 'name'),
              column('Status', 'status'),
              column('Recipients', 'recipients'),
              column('Sent', 'sent'),
              column('Delivered', 'delivered'),
              column('Read', 'read'),
              column('Replied within 24 h', 'replied_within_24h'),
              column('Opted out within 24 h', 'opted_out'),
              column('Failed', 'failed'),
            ]}
          />
          <ReportTable
            title="Templates"
            file="templates.csv"
            rows={data.reportTemplates.rows}
            columns={[
              column('Template', 'template_name'),
              column('Language', 'template_language'),
              column('Sends', 'sends'),
              column('Delivered', 'delivered'),
              column('Read', 'read'),
              column('Read rate', 'read_rate', percent),
              column('Replies', 'replies'),
              column('Failed', 'failed'),
              column('Billable', 'billable'),
            ]}
          />
        </>
      ) : null}
      <CostsSection from={variables.from} to={variables.to} />
    </Page>
  );
}
