// A new campaign: an APPROVED template with its parameters filled (and a preview of the message), an audience
// by tags and fields whose recipient count the API recounts as it changes (campaignAudienceCount), and when to
// send: now, or at a time. Creating and then starting or scheduling are the API's two calls; a refusal shows by field.
import { useState } from 'preact/hooks';
import { gql } from '@urql/core';
import { useClient, useQuery } from '@urql/preact';
import { Button, ErrorNote, Field } from '../../ui.js';

type Template = {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: { type: string; text: string | null }[];
};
type Tag = { id: string; name: string };
type Count = { total: number; no_address: number; opted_out: number; sendable: number; sendable_marketing: number };
type Condition = { field: string; key: string; op: '=' | '!='; value: string };

const CHOICES = gql`
  query CampaignFormChoices {
    templates { templates { id name language category status components { type text } } }
    tags { tags { id name } }
  }
`;
const COUNT = gql`
  query CampaignFormCount($audience_tag_ids: [ID!], $audience_tag_match: String, $audience_conditions: [String!]) {
    campaignAudienceCount(audience_tag_ids: $audience_tag_ids, audience_tag_match: $audience_tag_match, audience_conditions: $audience_conditions) {
      total no_address opted_out sendable sendable_marketing
    }
  }
`;
const CREATE = gql`
  mutation CampaignFormCreate($name: String!, $template: TemplateSendInput!, $audience_tag_ids: [ID!], $audience_tag_match: String, $audience_conditions: [String!]) {
    campaignCreate(name: $name, template: $template, audience_tag_ids: $audience_tag_ids, audience_tag_match: $audience_tag_match, audience_conditions: $audience_conditions) {
      id
    }
  }
`;
const START = gql`
  mutation CampaignFormStart($id: ID!) {
    campaignStart(id: $id) { id status }
  }
`;
const SCHEDULE = gql`
  mutation CampaignFormSchedule($id: ID!, $scheduled_at: DateTime!) {
    campaignSchedule(id: $id, scheduled_at: $scheduled_at) { id status }
  }
`;

const SLOT = /\{\{\s*(\d+)\s*\}\}/g;

/** The template's texts that hold slots, in reading order (header, then body). */
function slotTexts(template: Template | undefined): string[] {
  const text = (type: string) => template?.components.find((component) => component.type === type)?.text ?? '';
  return [text('HEADER'), text('BODY')];
}

/** How many parameters the template takes: its slots in reading order. */
function slotCount(template: Template | undefined): number {
  return slotTexts(template).reduce((count, text) => count + new Set([...text.matchAll(SLOT)].map((match) => match[1])).size, 0);
}

function preview(template: Template | undefined, parameters: string[]): string {
  const [header = '', body = ''] = slotTexts(template);
  const headerSlots = new Set([...header.matchAll(SLOT)].map((match) => match[1])).size;
  const fill = (text: string, offset: number) =>
    text.replace(SLOT, (whole, number: string) => parameters[offset + Number(number) - 1] || whole);
  return [fill(header, 0), fill(body, headerSlots)].filter(Boolean).join('\n');
}

/** A condition as the API's text: `marketing_consent=opted_out`, `metadata.plan!=gold`. */
function conditionText(condition: Condition): string {
  const field = condition.field === 'metadata' ? `metadata.${condition.key.trim()}` : condition.field;
  return `${field}${condition.op}${condition.value}`;
}

const complete = (condition: Condition) => condition.value !== '' && (condition.field !== 'metadata' || condition.key.trim() !== '');

function AudienceCount({ variables, marketing }: { variables: Record<string, unknown>; marketing: boolean }) {
  const empty = (variables['audience_tag_ids'] as string[]).length === 0 && (variables['audience_conditions'] as string[]).length === 0;
  const [counted] = useQuery<{ campaignAudienceCount: Count }>({ query: COUNT, variables, pause: empty });
  const count = counted.data?.campaignAudienceCount;
  if (empty) return <p class="hint">Choose tags or add a condition to see who receives it.</p>;
  return (
    <div role="status" aria-live="polite" class="audience-count">
      <ErrorNote error={counted.error} />
      {count ? (
        <p>
          <strong data-testid="audience-count">{marketing ? count.sendable_marketing : count.sendable}</strong> recipients of {count.total}{' '}
          contacts
          {count.no_address ? `; ${count.no_address} without a WhatsApp number are skipped` : ''}
          {marketing && count.opted_out ? `; ${count.opted_out} opted out of marketing are skipped` : ''}
          {!marketing && count.opted_out ? `; ${count.opted_out} opted out of marketing still get this non-marketing template` : ''}.
        </p>
      ) : (
        <p>Counting…</p>
      )}
    </div>
  );
}

function ConditionRow({
  condition,
  index,
  onChange,
  onRemove,
}: {
  condition: Condition;
  index: number;
  onChange: (c: Condition) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  return (
    <div class="condition-row">
      <div class="field">
        <label for={`condition-field-${index}`}>Condition {n} field</label>
        <select
          id={`condition-field-${index}`}
          value={condition.field}
          onChange={(e) => onChange({ ...condition, field: e.currentTarget.value, value: '' })}
        >
          <option value="marketing_consent">Marketing consent</option>
          <option value="metadata">Metadata field</option>
        </select>
      </div>
      {condition.field === 'metadata' ? (
        <Field
          label={`Condition ${n} metadata key`}
          value={condition.key}
          onInput={(e) => onChange({ ...condition, key: e.currentTarget.value })}
        />
      ) : null}
      <div class="field">
        <label for={`condition-op-${index}`}>Condition {n} comparison</label>
        <select
          id={`condition-op-${index}`}
          value={condition.op}
          onChange={(e) => onChange({ ...condition, op: e.currentTarget.value as Condition['op'] })}
        >
          <option value="=">is</option>
          <option value="!=">is not</option>
        </select>
      </div>
      {condition.field === 'marketing_consent' ? (
        <div class="field">
          <label for={`condition-value-${index}`}>Condition {n} value</label>
          <select
            id={`condition-value-${index}`}
            value={condition.value}
            onChange={(e) => onChange({ ...condition, value: e.currentTarget.value })}
          >
            <option value="">Choose…</option>
            <option value="opted_in">opted in</option>
            <option value="opted_out">opted out</option>
            <option value="unknown">unknown</option>
          </select>
        </div>
      ) : (
        <Field
          label={`Condition ${n} value`}
          value={condition.value}
          onInput={(e) => onChange({ ...condition, value: e.currentTarget.value })}
        />
      )}
      <button type="button" class="link" onClick={onRemove}>
        Remove condition {n}
      </button>
    </div>
  );
}

export function CampaignForm({ onCreated }: { onCreated: (id: string) => void }) {
  const client = useClient();
  const [choices] = useQuery<{ templates: { templates: Template[] }; tags: { tags: Tag[] } }>({ query: CHOICES });
  const approved = choices.data?.templates.templates.filter((template) => template.status === 'APPROVED') ?? [];
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [parameters, setParameters] = useState<string[]>([]);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [match, setMatch] = useState('any');
  const [conditions, setConditions] = useState<Condition[]>([]);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const template = approved.find((candidate) => candidate.id === templateId);
  const slots = slotCount(template);
  const audience = {
    audience_tag_ids: tagIds,
    audience_tag_match: match,
    audience_conditions: conditions.filter(complete).map(conditionText),
  };

  async function submit() {
    setError(null);
    setBusy(true);
    try {
      const created = await client
        .mutation<{ campaignCreate: { id: string } | null }>(CREATE, {
          name,
          template: { name: template?.name ?? '', language: template?.language ?? '', parameters: parameters.slice(0, slots) },
          ...audience,
        })
        .toPromise();
      const id = created.data?.campaignCreate?.id;
      if (!id) return setError(created.error);
      const next =
        when === 'now'
          ? await client.mutation(START, { id }).toPromise()
          : await client.mutation(SCHEDULE, { id, scheduled_at: at ? new Date(at).toISOString() : '' }).toPromise();
      // A draft that could not start or be scheduled stays; its page says what to do.
      if (next.error) setError(next.error);
      onCreated(id);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="card campaign-form"
      aria-label="New campaign"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2>New campaign</h2>
      <ErrorNote error={choices.error} />
      <Field label="Campaign name" value={name} required onInput={(e) => setName(e.currentTarget.value)} />
      <div class="field">
        <label for="campaign-template">Approved template</label>
        <select id="campaign-template" required value={templateId} onChange={(e) => setTemplateId(e.currentTarget.value)}>
          <option value="">Choose a template…</option>
          {approved.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name} ({candidate.language}, {candidate.category.toLowerCase()})
            </option>
          ))}
        </select>
      </div>
      {Array.from({ length: slots }, (_, index) => (
        <Field
          key={`${templateId}-${index}`}
          label={`Parameter {{${index + 1}}}`}
          required
          value={parameters[index] ?? ''}
          onInput={(e) => {
            const next = [...parameters];
            next[index] = e.currentTarget.value;
            setParameters(next);
          }}
        />
      ))}
      {template ? (
        <figure class="phone-preview" aria-label="Message preview">
          <div class="bubble" data-testid="campaign-preview">
            {preview(template, parameters)}
          </div>
        </figure>
      ) : null}
      <fieldset>
        <legend>Audience: contacts with these tags</legend>
        {choices.data?.tags.tags.length === 0 ? <p class="hint">No tags yet: tag contacts on the Contacts page.</p> : null}
        {choices.data?.tags.tags.map((tag) => (
          <label key={tag.id} class="check">
            <input
              type="checkbox"
              checked={tagIds.includes(tag.id)}
              onChange={(e) => setTagIds(e.currentTarget.checked ? [...tagIds, tag.id] : tagIds.filter((id) => id !== tag.id))}
            />{' '}
            {tag.name}
          </label>
        ))}
        <div class="field">
          <label for="campaign-tag-match">Contacts must have</label>
          <select id="campaign-tag-match" value={match} onChange={(e) => setMatch(e.currentTarget.value)}>
            <option value="any">any of the chosen tags</option>
            <option value="all">all of the chosen tags</option>
          </select>
        </div>
      </fieldset>
      <fieldset>
        <legend>Audience: and meet every condition</legend>
        {conditions.map((condition, index) => (
          <ConditionRow
            key={index}
            index={index}
            condition={condition}
            onChange={(changed) => setConditions(conditions.map((c, at) => (at === index ? changed : c)))}
            onRemove={() => setConditions(conditions.filter((_, at) => at !== index))}
          />
        ))}
        <button type="button" onClick={() => setConditions([...conditions, { field: 'marketing_consent', key: '', op: '=', value: '' }])}>
          Add a condition
        </button>
      </fieldset>
      <AudienceCount variables={audience} marketing={template?.category === 'MARKETING'} />
      <fieldset>
        <legend>When to send</legend>
        <label class="check">
          <input type="radio" name="campaign-when" checked={when === 'now'} onChange={() => setWhen('now')} /> Start now
        </label>
        <label class="check">
          <input type="radio" name="campaign-when" checked={when === 'later'} onChange={() => setWhen('later')} /> Schedule for a time
        </label>
        {when === 'later' ? (
          <Field label="Send at (your time)" type="datetime-local" required value={at} onInput={(e) => setAt(e.currentTarget.value)} />
        ) : null}
      </fieldset>
      <ErrorNote error={error} />
      <Button type="submit" busy={busy}>
        {when === 'now' ? 'Create and start' : 'Create and schedule'}
      </Button>
    </form>
  );
}
