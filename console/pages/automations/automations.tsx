// Automations: the workspace's rules (name, trigger, enabled, their last run and how it went, how many runs and
// matches), each turned on or off in place, and the editor of a new or a saved rule (editor.tsx). For the people
// whom the API lets write rules (the `automations` permission: owners and admins).
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { useRoute } from 'preact-iso';
import { EmptyNote, ErrorNote, ListTable, Page, Time } from '../../ui.js';
import { triggerChoice } from './choices.js';
import { RuleEditor } from './editor.js';
import { runResult } from './results.js';

type Listed = {
  id: string;
  name: string;
  enabled: boolean;
  trigger: { event: string };
  run_count: number;
  matched_count: number;
  last_run: { matched: boolean; actions: { type: string; status: string }[]; started_at: string } | null;
};

const LIST = gql`
  query AutomationsPage {
    automations(limit: 100) {
      data {
        id
        name
        enabled
        trigger
        run_count
        matched_count
        last_run {
          matched
          actions
          started_at
        }
      }
    }
  }
`;
const ENABLE = gql`
  mutation AutomationsPageEnable($id: ID!, $enabled: Boolean!) {
    automationUpdate(id: $id, enabled: $enabled) {
      id
      enabled
    }
  }
`;

function RuleList() {
  const [listed] = useQuery<{ automations: { data: Listed[] } }>({ query: LIST });
  const [enabling, enable] = useMutation(ENABLE);
  const rules = listed.data?.automations.data;
  return (
    <Page title="Automations" actions={<a href="/automations/new">New rule</a>}>
      <ErrorNote error={listed.error ?? enabling.error} />
      <EmptyNote items={rules}>No rules yet. A rule does routine work on its own: write one with “New rule”.</EmptyNote>
      {rules?.length ? (
        <ListTable label="Rules" columns={['Name', 'Trigger', 'Enabled', 'Last run', 'Runs', 'Matched']}>
          {rules.map((rule) => (
            <tr key={rule.id} data-testid="rule-row">
              <td>
                <a href={`/automations/${rule.id}`}>{rule.name}</a>
              </td>
              <td>{triggerChoice(rule.trigger.event)?.label ?? rule.trigger.event}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${rule.name} enabled`}
                  checked={rule.enabled}
                  onChange={(event) => void enable({ id: rule.id, enabled: event.currentTarget.checked })}
                />
              </td>
              <td>
                {rule.last_run ? (
                  <>
                    <Time value={rule.last_run.started_at} />: {runResult(rule.last_run)}
                  </>
                ) : (
                  'never'
                )}
              </td>
              <td>{rule.run_count}</td>
              <td>{rule.matched_count}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
    </Page>
  );
}

export function AutomationsPage() {
  const { params } = useRoute();
  const id = params['id'];
  if (!id) return <RuleList />;
  return <RuleEditor key={id} id={id === 'new' ? null : id} />;
}
