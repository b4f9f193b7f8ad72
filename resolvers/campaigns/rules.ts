// The rules of a campaign's life, shared by the API and the runner: its statuses, the one table of the
// actions allowed from each, its recipients' statuses in the order they move, and the bound on send rates.
import { DomainError } from '../shared/errors.js';

export { MAX_CAMPAIGN_SEND_RATE } from '../../infra/config/settings.js';

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** The statuses each action is allowed from; `update` and `delete` keep the status (or remove the campaign). */
export const CAMPAIGN_ACTIONS = {
  update: ['draft'],
  delete: ['draft', 'completed', 'cancelled'],
  schedule: ['draft', 'scheduled'],
  start: ['draft', 'scheduled'],
  pause: ['running'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'running', 'paused'],
} as const satisfies Record<string, readonly CampaignStatus[]>;

export type CampaignAction = keyof typeof CAMPAIGN_ACTIONS;

export function assertAllowed(action: CampaignAction, status: string): void {
  const allowed: readonly string[] = CAMPAIGN_ACTIONS[action];
  if (allowed.includes(status)) return;
  throw new DomainError('INVALID_TRANSITION', `Cannot ${action} a campaign whose status is ${status}`, {
    status,
    action,
    allowed_from: allowed,
  });
}

export const RECIPIENT_STATUSES = ['pending', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped', 'cancelled'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** Recipients that still hold a campaign open: not yet sent, or sent with an outcome still unknown. */
export const UNFINISHED_RECIPIENT_STATUSES: RecipientStatus[] = ['pending', 'sending'];

/** Why a recipient was not sent, and why a send's outcome is unknown. */
export const RECIPIENT_ERRORS = {
  noAddress: { error_code: 'NO_MESSAGING_ADDRESS', error_message: 'The contact has neither a wa_id nor a phone number' },
  optedOut: { error_code: 'CONTACT_OPTED_OUT', error_message: 'The contact opted out of marketing messages' },
  outcomeUnknown: {
    error_code: 'SEND_OUTCOME_UNKNOWN',
    error_message:
      'The sender stopped while the provider was being called; the message was not sent again because it may have been delivered',
  },
} as const;
