// What the workspace shares: the public booking page, the widget code to paste into a website (copied with one
// click), and the calendar feed for a calendar app. The feed's URL holds a secret, so it is shown only when it is
// issued; rotating it stops the previous URL at once.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { ErrorNote, ShownOnce, Time } from '../../ui.js';

const LINKS = gql`
  query SchedulingPageLinks {
    widgetEmbed { booking_url html_snippet time_zone }
    schedulingSettings { calendar_feed_enabled calendar_feed_rotated_at }
  }
`;
const ROTATE = gql`
  mutation SchedulingPageRotateFeed {
    calendarFeedTokenRotate {
      url
      rotated_at
    }
  }
`;

type Links = {
  widgetEmbed: { booking_url: string; html_snippet: string; time_zone: string };
  schedulingSettings: { calendar_feed_enabled: boolean; calendar_feed_rotated_at: string | null };
};

function WidgetCode({ snippet }: { snippet: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="field">
      <label for="widget-code">Widget code for your website</label>
      <textarea id="widget-code" readOnly rows={4} value={snippet} />
      <button type="button" onClick={() => void navigator.clipboard?.writeText(snippet).then(() => setCopied(true))}>
        {copied ? 'Copied the widget code' : 'Copy the widget code'}
      </button>
    </div>
  );
}

export function SchedulingLinks() {
  const [links, refresh] = useQuery<Links>({ query: LINKS });
  const [rotation, rotate] = useMutation<{ calendarFeedTokenRotate: { url: string; rotated_at: string } | null }>(ROTATE);
  const widget = links.data?.widgetEmbed;
  const feed = links.data?.schedulingSettings;
  const issued = rotation.data?.calendarFeedTokenRotate;
  return (
    <section class="card" aria-labelledby="links-title">
      <h2 id="links-title">Booking page and calendar feed</h2>
      <ErrorNote error={links.error ?? rotation.error} />
      {widget ? (
        <>
          <p>
            Customers book on <a href={widget.booking_url}>the booking page</a> ({widget.time_zone} hours).
          </p>
          <WidgetCode snippet={widget.html_snippet} />
        </>
      ) : null}
      {feed ? (
        <>
          <p>
            Calendar feed:{' '}
            {feed.calendar_feed_enabled ? (
              <>
                issued <Time value={feed.calendar_feed_rotated_at} />
              </>
            ) : (
              'not issued yet'
            )}
            .
          </p>
          {issued ? <ShownOnce label="The new calendar feed link." value={issued.url} /> : null}
          <button type="button" onClick={() => void rotate({}).then(() => refresh({ requestPolicy: 'network-only' }))}>
            {feed.calendar_feed_enabled ? 'Rotate the feed link' : 'Issue a feed link'}
          </button>
        </>
      ) : null}
    </section>
  );
}
