// The facades' one table: every named operation that a REST route or an MCP tool runs, with those routes and
// that tool (shape in facades/core/table.ts), one file per operations file. Adding a route or a tool is one
// entry, or one part of an entry, there. The order is the order of the OpenAPI document.
import type { FacadeEntry } from '../core/table.js';
import { AGENT } from './agent.js';
import { ANALYTICS } from './analytics.js';
import { BOOKING } from './booking.js';
import { CAMPAIGNS } from './campaigns.js';
import { CONTACTS } from './contacts.js';
import { CONVERSATIONS } from './conversations.js';
import { EVENTS } from './events.js';
import { KNOWLEDGE } from './knowledge.js';
import { MESSAGING } from './messaging.js';
import { SCHEDULING } from './scheduling.js';
import { TAGS } from './tags.js';
import { TRANSCRIPTS } from './transcripts.js';
import { USERS } from './users.js';
import { WEBHOOKS } from './webhooks.js';

export const FACADE_TABLE: readonly FacadeEntry[] = [
  ...USERS,
  ...CONVERSATIONS,
  ...TRANSCRIPTS,
  ...CONTACTS,
  ...TAGS,
  ...MESSAGING,
  ...WEBHOOKS,
  ...EVENTS,
  ...SCHEDULING,
  ...BOOKING,
  ...KNOWLEDGE,
  ...ANALYTICS,
  ...CAMPAIGNS,
  ...AGENT,
];
