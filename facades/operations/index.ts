// The facades' one table: every named operation that a REST route or an MCP tool runs, with those routes and
// that tool (shape in facades/core/table.ts), one file per area beside its operations file. Adding a route or a
// tool is one entry, or one part of an entry, there. The order is the order of the OpenAPI document.
import type { FacadeEntry } from '../core/table.js';
import { AGENT } from './agent.js';
import { ANALYTICS } from './analytics.js';
import { AUTOMATIONS } from './automations.js';
import { CAMPAIGNS } from './campaigns.js';
import { CONTACTS, TAGS } from './contacts.js';
import { CONVERSATIONS } from './conversations.js';
import { EVENTS } from './events.js';
import { KNOWLEDGE } from './knowledge.js';
import { MESSAGING, TRANSCRIPTS } from './messaging.js';
import { REPORTS } from './reports.js';
import { TEAMS, USERS } from './people.js';
import { BOOKING, SCHEDULING } from './scheduling.js';
import { TEMPLATES } from './templates.js';
import { WEBHOOKS } from './webhooks.js';
import { WORKSPACE } from './workspace.js';

export const FACADE_TABLE: readonly FacadeEntry[] = [
  ...USERS,
  ...TEAMS,
  ...WORKSPACE,
  ...CONVERSATIONS,
  ...TRANSCRIPTS,
  ...CONTACTS,
  ...TAGS,
  ...TEMPLATES,
  ...MESSAGING,
  ...WEBHOOKS,
  ...EVENTS,
  ...SCHEDULING,
  ...BOOKING,
  ...KNOWLEDGE,
  ...ANALYTICS,
  ...REPORTS,
  ...CAMPAIGNS,
  ...AGENT,
  ...AUTOMATIONS,
];
