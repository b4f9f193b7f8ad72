// Settings → Consent: the workspace's opt-out and opt-in keywords and the confirmation texts sent back
// (consentSettings, consentSettingsUpdate). An inbound message whose whole text is a keyword opts its contact
// out or back in. Owners and admins change them (the campaigns permission): the keywords decide who gets marketing.
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ErrorNote, Field, Page, formValues } from '../../ui.js';

const SETTINGS = gql`
  query ConsentSettings {
    consentSettings { opt_out_keywords opt_in_keywords opt_out_confirmation opt_in_confirmation }
  }
`;
const UPDATE = gql`
  mutation ConsentSettingsUpdate(
    $opt_out_keywords: [String!]
    $opt_in_keywords: [String!]
    $opt_out_confirmation: String
    $opt_in_confirmation: String
  ) {
    consentSettingsUpdate(
      opt_out_keywords: $opt_out_keywords
      opt_in_keywords: $opt_in_keywords
      opt_out_confirmation: $opt_out_confirmation
      opt_in_confirmation: $opt_in_confirmation
    ) {
      opt_out_keywords
      opt_in_keywords
      opt_out_confirmation
      opt_in_confirmation
    }
  }
`;

type Settings = {
  opt_out_keywords: string[];
  opt_in_keywords: string[];
  opt_out_confirmation: string | null;
  opt_in_confirmation: string | null;
};

/** "stop, baja" → ["stop", "baja"]: keywords are typed as a comma-separated list. */
function keywords(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((keyword) => keyword.trim())
    .filter(Boolean);
}

function ConsentForm({ settings }: { settings: Settings }) {
  const [saving, save] = useMutation(UPDATE);
  return (
    <form
      class="card"
      aria-label="Consent keywords"
      onSubmit={(event) => {
        event.preventDefault();
        const values = formValues(event.currentTarget);
        void save({
          opt_out_keywords: keywords(values['opt_out_keywords']),
          opt_in_keywords: keywords(values['opt_in_keywords']),
          opt_out_confirmation: values['opt_out_confirmation'] ?? '',
          opt_in_confirmation: values['opt_in_confirmation'] ?? '',
        });
      }}
    >
      <Field
        label="Opt-out keywords"
        name="opt_out_keywords"
        required
        defaultValue={settings.opt_out_keywords.join(', ')}
        hint="Separated by commas; a message that is exactly one of them (any case) opts its contact out of marketing."
      />
      <Field
        label="Opt-out confirmation"
        name="opt_out_confirmation"
        defaultValue={settings.opt_out_confirmation ?? ''}
        hint="Sent back after an opt-out keyword; leave empty to send nothing."
      />
      <Field
        label="Opt-in keywords"
        name="opt_in_keywords"
        required
        defaultValue={settings.opt_in_keywords.join(', ')}
        hint="Separated by commas; opts the contact back in."
      />
      <Field
        label="Opt-in confirmation"
        name="opt_in_confirmation"
        defaultValue={settings.opt_in_confirmation ?? ''}
        hint="Sent back after an opt-in keyword; leave empty to send nothing."
      />
      <ErrorNote error={saving.error} />
      <Button type="submit" busy={saving.fetching}>
        Save
      </Button>
      {saving.data && !saving.error ? <p role="status">Saved.</p> : null}
    </form>
  );
}

export function ConsentSettingsPage() {
  const [{ data, error }] = useQuery<{ consentSettings: Settings }>({ query: SETTINGS });
  return (
    <Page title="Consent">
      <ErrorNote error={error} />
      {data ? <ConsentForm settings={data.consentSettings} /> : null}
    </Page>
  );
}
