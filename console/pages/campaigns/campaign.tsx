// One campaign: its status and counts, kept live by the workspace's message subscriptions (each send and each
// delivery report of its messages arrives there, and the campaign is read again) and, while it is under way, read
// again every few seconds, since its completion has no event of its own (useRereadWhileUnderWay, which the list
// uses too); why it waits when its number's
// limits hold it, pause / resume / cancel as its status allows, its recipients page by page, and the recipients
// as a CSV file (the campaignExport pages joined).
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useClient, useMutation, useQuery, useSubscription } from '@urql/preact';
import { Button, ErrorNote, ListTable, Time } from '../../ui.js';

type Progress = Record<
  'total' | 'pending' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed' | 'skipped' | 'skipped_opted_out' | 'cancelled',
  number
>;
type Campaign = {
  id: string;
  name: string;
  status: string;
  template: { name: string; language: string };
  scheduled_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  next_send_at: string | null;
  waiting_reason: string | null;
  error_code: string | null;
  error_message: string | null;
  progress: Progress;
};
type ExportPage = { filename: string; content: string; next_cursor: string | null; has_more: boolean };
type Recipient = {
  contact_id: string;
  contact_name: string | null;
  phone_number: string | null;
  status: string;
  error_code: string | null;
  sent_at: string | null;
};

const PAGE = 20;

const CAMPAIGN = gql`
  query CampaignPage($id: ID!) {
    campaign(id: $id) {
      id name status template { name language } scheduled_at started_at completed_at next_send_at waiting_reason error_code error_message
      progress { total pending sending sent delivered read failed skipped skipped_opted_out cancelled }
    }
  }
`;
const RECIPIENTS = gql`
  query CampaignPageRecipients($id: ID!, $cursor: ID) {
    campaignRecipients(campaign_id: $id, limit: 20, cursor: $cursor) {
      data { contact_id contact_name phone_number status error_code sent_at }
      next_cursor
      has_more
    }
  }
`;
const EXPORT = gql`
  query CampaignPageExport($id: ID!, $cursor: ID) {
    campaignExport(id: $id, cursor: $cursor) { filename content next_cursor has_more }
  }
`;
const MESSAGES_LIVE = gql`
  subscription CampaignPageMessages {
    messageCreated { id }
  }
`;
const STATUSES_LIVE = gql`
  subscription CampaignPageStatuses {
    messageStatusChanged { id }
  }
`;
const ACTION = gql`
  mutation CampaignPageAction($id: ID!, $pause: Boolean!, $resume: Boolean!, $cancel: Boolean!) {
    campaignPause(id: $id) @include(if: $pause) { id status }
    campaignResume(id: $id) @include(if: $resume) { id status }
    campaignCancel(id: $id) @include(if: $cancel) { id status }
  }
`;

const WAITING: Record<string, string> = {
  throughput: "Waiting: the number's messages per second are used up (shared by its campaigns). It goes on by itself.",
  pair_rate: 'Waiting: WhatsApp allows one message per recipient every 6 seconds. It goes on by itself.',
  messaging_limit_tier:
    "Waiting: the number's messaging-limit tier (new recipients per rolling 24 hours) is reached. It goes on by itself when the window frees.",
};

const COUNTS: [keyof Progress, string][] = [
  ['total', 'Recipients'],
  ['pending', 'Waiting to send'],
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['read', 'Read'],
  ['failed', 'Failed'],
  ['skipped_opted_out', 'Skipped (opted out)'],
  ['skipped', 'Skipped (all)'],
  ['cancelled', 'Cancelled'],
];

/** How often campaigns under way are read again besides their messages' live events. */
const REREAD_UNDER_WAY_MS = 3000;
const UNDER_WAY = new Set(['running', 'scheduled']);

/**
 * Reads again every few seconds while one of the campaigns shown is under way (running or scheduled): a campaign's
 * completion has no event of its own, and the runner may complete it after the last report of its messages reached
 * the page, which then showed "running" for good. The interval calls the latest `reread` of the page.
 */
export function useRereadWhileUnderWay(statuses: readonly string[], reread: () => void): void {
  const latest = useRef(reread);
  latest.current = reread;
  const underWay = statuses.some((status) => UNDER_WAY.has(status));
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(() => latest.current(), REREAD_UNDER_WAY_MS);
    return () => clearInterval(timer);
  }, [underWay]);
}

/** Of the recipients, those with an outcome: what the progress bar shows. */
export function finished(progress: Progress): number {
  return progress.total - progress.pending - progress.sending;
}

function Recipients({ id, version }: { id: string; version: number }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const [page, refetch] = useQuery<{ campaignRecipients: { data: Recipient[]; next_cursor: string | null; has_more: boolean } }>({
    query: RECIPIENTS,
    variables: { id, cursor },
  });
  useEffect(() => {
    if (version > 0) refetch({ requestPolicy: 'network-only' });
  }, [version]);
  const rows = page.data?.campaignRecipients;
  return (
    <section aria-labelledby="recipients-title">
      <h2 id="recipients-title">Recipients</h2>
      <ErrorNote error={page.error} />
      <ListTable label="Recipients" columns={['Contact', 'Phone', 'Status', 'Error', 'Sent']}>
        {rows?.data.map((row) => (
          <tr key={row.contact_id} data-testid="recipient-row">
            <td>{row.contact_name ?? row.contact_id}</td>
            <td>{row.phone_number ?? '—'}</td>
            <td data-status={row.status}>{row.status}</td>
            <td>{row.error_code ?? ''}</td>
            <td>
              <Time value={row.sent_at} />
            </td>
          </tr>
        ))}
      </ListTable>
      <nav class="pager" aria-label="Recipient pages">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous {PAGE}
        </button>
        <button type="button" disabled={!rows?.has_more} onClick={() => setCursors([...cursors, rows?.next_cursor ?? null])}>
          Next {PAGE}
        </button>
      </nav>
    </section>
  );
}

function ExportButton({ id }: { id: string }) {
  const client = useClient();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    setError(null);
    try {
      const parts: string[] = [];
      let cursor: string | null = null;
      let filename = 'campaign.csv';
      for (;;) {
        const answer: { data?: { campaignExport: ExportPage }; error?: unknown } = await client
          .query<{ campaignExport: ExportPage }>(EXPORT, { id, cursor }, { requestPolicy: 'network-only' })
          .toPromise();
        const page: ExportPage | undefined = answer.data?.campaignExport;
        if (!page) return setError(answer.error);
        parts.push(page.content);
        filename = page.filename;
        if (!page.has_more) break;
        cursor = page.next_cursor;
      }
      const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      link.click();
      URL.revokeObjectURL(url);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button type="button" busy={busy} onClick={() => void download()}>
        Download recipients (CSV)
      </Button>
      <ErrorNote error={error} />
    </>
  );
}

export function CampaignView({ id }: { id: string }) {
  const [version, setVersion] = useState(0);
  const [read, refresh] = useQuery<{ campaign: Campaign }>({ query: CAMPAIGN, variables: { id } });
  const [acting, act] = useMutation(ACTION);
  const reread = () => {
    refresh({ requestPolicy: 'network-only' });
    setVersion((current) => current + 1);
  };
  // Every send and every delivery report of the workspace arrives here; the campaign's counts are read again.
  const live = (_previous: unknown, event: unknown) => {
    reread();
    return event;
  };
  useSubscription({ query: MESSAGES_LIVE }, live);
  useSubscription({ query: STATUSES_LIVE }, live);
  const campaign = read.data?.campaign;
  useRereadWhileUnderWay(campaign ? [campaign.status] : [], reread);
  if (!campaign) return <ErrorNote error={read.error} />;
  const { progress } = campaign;
  const run = (action: 'pause' | 'resume' | 'cancel') =>
    void act({ id, pause: action === 'pause', resume: action === 'resume', cancel: action === 'cancel' }).then(reread);
  return (
    <article class="card campaign" aria-labelledby="campaign-title">
      <h2 id="campaign-title">{campaign.name}</h2>
      <p>
        Status: <strong data-testid="campaign-status">{campaign.status}</strong> · template {campaign.template.name} (
        {campaign.template.language})
      </p>
      {campaign.status === 'scheduled' ? (
        <p>
          Starts <Time value={campaign.scheduled_at} />.
        </p>
      ) : null}
      {campaign.waiting_reason ? (
        <p role="status" data-testid="waiting-reason">
          {WAITING[campaign.waiting_reason] ?? `Waiting: ${campaign.waiting_reason}.`} Next send <Time value={campaign.next_send_at} />.
        </p>
      ) : null}
      {campaign.error_code ? (
        <p role="alert">
          Paused by the service ({campaign.error_code}): {campaign.error_message}
        </p>
      ) : null}
      <label for="campaign-progress">
        {finished(progress)} of {progress.total} recipients done
      </label>
      <progress id="campaign-progress" max={Math.max(progress.total, 1)} value={finished(progress)} />
      <dl class="counts" aria-label="Counts" aria-live="polite">
        {COUNTS.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd data-testid={`count-${key}`}>{progress[key]}</dd>
          </div>
        ))}
      </dl>
      <div class="actions">
        {campaign.status === 'running' ? (
          <Button type="button" busy={acting.fetching} onClick={() => run('pause')}>
            Pause
          </Button>
        ) : null}
        {campaign.status === 'paused' ? (
          <Button type="button" busy={acting.fetching} onClick={() => run('resume')}>
            Resume
          </Button>
        ) : null}
        {['draft', 'scheduled', 'running', 'paused'].includes(campaign.status) ? (
          <Button type="button" busy={acting.fetching} onClick={() => run('cancel')}>
            Cancel campaign
          </Button>
        ) : null}
        <ExportButton id={id} />
      </div>
      <ErrorNote error={acting.error} />
      <p>
        Started <Time value={campaign.started_at} /> · completed <Time value={campaign.completed_at} />
      </p>
      <Recipients id={id} version={version} />
    </article>
  );
}
