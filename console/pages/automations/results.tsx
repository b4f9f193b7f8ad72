// What a rule did and would do, in words: its dry run (which recent events would match and the actions it would
// do, nothing done) and its run log (each run's event, whether it matched, each action's outcome).
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { actionChoice, type Lookups } from './choices.js';
import { Button, EmptyNote, ErrorNote, ListTable, Time } from '../../ui.js';

type Values = Record<string, unknown>;
type Outcome = { type: string; status: string; error?: string };
type Run = { id: string; event_id: string; matched: boolean; actions: Outcome[]; started_at: string; duration_ms: number };
type Tested = {
  evaluated: number;
  matched: number;
  results: { event_id: string; event_type: string; created_at: string; matched: boolean; actions: Values[] }[];
};

const TEST = gql`
  mutation AutomationsPageTest($id: ID!) {
    automationTest(id: $id) {
      evaluated
      matched
      results {
        event_id
        event_type
        created_at
        matched
        actions
      }
    }
  }
`;
const RUNS = gql`
  query AutomationsPageRuns($id: ID!) {
    automationRuns(id: $id, limit: 50) {
      data {
        id
        event_id
        matched
        actions
        started_at
        duration_ms
      }
    }
  }
`;

/** One value of an action in words: a person's name rather than their id. */
function spoken(value: unknown, lookups: Lookups): string {
  const person = lookups.people.find((candidate) => candidate.id === value);
  if (person) return person.name ?? person.email;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** An action in words: "Add a tag: refund", "Assign to a person: Ana". */
export function describeAction(action: Values, lookups: Lookups): string {
  const choice = actionChoice(action);
  if (!choice) return String(action['type']);
  const values = choice.parameters
    .map((parameter) =>
      parameter.input.kind === 'template'
        ? `${spoken(action['name'], lookups)} (${spoken(action['language'], lookups)})`
        : spoken(action[parameter.key], lookups),
    )
    .filter(Boolean);
  return values.length > 0 ? `${choice.label}: ${values.join(', ')}` : choice.label;
}

/** How a run went, in a few words: "matched, 2 done" or "matched, 1 of 2 failed". */
export function runResult(run: Pick<Run, 'matched' | 'actions'>): string {
  if (!run.matched) return 'did not match';
  const failed = run.actions.filter((action) => action.status === 'failed').length;
  return failed > 0 ? `matched, ${failed} of ${run.actions.length} failed` : `matched, ${run.actions.length} done`;
}

export function DryRun({ ruleId, lookups }: { ruleId: string; lookups: Lookups }) {
  const [testing, test] = useMutation<{ automationTest: Tested }>(TEST);
  const tested = testing.data?.automationTest;
  const matching = tested?.results.filter((result) => result.matched);
  return (
    <section class="card" aria-labelledby="dry-run-title">
      <h2 id="dry-run-title">Try it</h2>
      <p class="hint">Checks the saved rule against the last 100 events of its trigger and says what it would do. Nothing is done.</p>
      <Button type="button" busy={testing.fetching} onClick={() => void test({ id: ruleId })}>
        Test the rule
      </Button>
      <ErrorNote error={testing.error} />
      {tested && matching ? (
        <div role="status" data-testid="dry-run">
          <p>
            {tested.matched} of {tested.evaluated} recent events would match.
          </p>
          {matching.length > 0 ? (
            <ListTable label="Events that would match" columns={['Event', 'When', 'What would be done']}>
              {matching.map((result) => (
                <tr key={result.event_id}>
                  <td>
                    {result.event_type} <code>{result.event_id}</code>
                  </td>
                  <td>
                    <Time value={result.created_at} />
                  </td>
                  <td>
                    <ul class="outcomes">
                      {result.actions.map((action, index) => (
                        <li key={index}>{describeAction(action, lookups)}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </ListTable>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

export function RunLog({ ruleId }: { ruleId: string }) {
  const [listed, refresh] = useQuery<{ automationRuns: { data: Run[] } }>({ query: RUNS, variables: { id: ruleId } });
  const runs = listed.data?.automationRuns.data;
  return (
    <section class="card" aria-labelledby="run-log-title">
      <h2 id="run-log-title">Run log</h2>
      <Button type="button" busy={listed.fetching} onClick={() => refresh({ requestPolicy: 'network-only' })}>
        Refresh the run log
      </Button>
      <ErrorNote error={listed.error} />
      <EmptyNote items={runs}>No runs yet: the rule runs on the next event of its trigger while it is enabled.</EmptyNote>
      {runs?.length ? (
        <ListTable label="Runs" columns={['Started', 'Event', 'Result', 'Actions', 'Took']}>
          {runs.map((run) => (
            <tr key={run.id} data-testid="run-row">
              <td>
                <Time value={run.started_at} />
              </td>
              <td>
                <code>{run.event_id}</code>
              </td>
              <td>{runResult(run)}</td>
              <td>
                <ul class="outcomes">
                  {run.actions.map((action, index) => (
                    <li key={index} data-status={action.status}>
                      {action.type}: {action.status}
                      {action.error ? ` — ${action.error}` : ''}
                    </li>
                  ))}
                </ul>
              </td>
              <td>{run.duration_ms} ms</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
    </section>
  );
}
