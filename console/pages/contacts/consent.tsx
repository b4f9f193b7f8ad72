// A contact's marketing consent on its page: what it is, where it came from and when, and a person's say
// (recorded with source console). An opted-out contact gets no MARKETING template and campaigns skip it.
import { gql } from '@urql/core';
import { useMutation } from '@urql/preact';
import { Button, ErrorNote, Time, formValues } from '../../ui.js';

export type MarketingConsent = { status: string; source: string | null; updated_at: string | null };

const SET = gql`
  mutation ContactConsentSet($id: ID!, $status: String!) {
    contactConsentSet(id: $id, status: $status, source: "console") {
      id
    }
  }
`;

const LABELS: Record<string, string> = { opted_in: 'Opted in', opted_out: 'Opted out', unknown: 'Unknown' };

export function ContactConsent({ id, consent, onSaved }: { id: string; consent: MarketingConsent; onSaved: () => void }) {
  const [setting, set] = useMutation(SET);
  return (
    <section aria-label="Marketing consent">
      <h3>Marketing consent</h3>
      <p>
        {LABELS[consent.status] ?? consent.status}
        {consent.source ? ` · by ${consent.source}` : ''}
        {consent.updated_at ? (
          <>
            {' · '}
            <Time value={consent.updated_at} />
          </>
        ) : null}
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const status = formValues(event.currentTarget)['status'];
          if (status) void set({ id, status }).then((answer) => !answer.error && onSaved());
        }}
      >
        <label for="consent-status">Record consent</label>
        <select id="consent-status" name="status" defaultValue={consent.status}>
          {Object.entries(LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <Button type="submit" busy={setting.fetching}>
          Record
        </Button>
        <ErrorNote error={setting.error} />
      </form>
    </section>
  );
}
