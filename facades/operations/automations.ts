// Where the automations operations (automations.graphql) are exposed.
import type { FacadeEntry } from '../core/table.js';

export const AUTOMATIONS: readonly FacadeEntry[] = [
  {
    operation: 'AutomationsList',
    rest: [{ operationId: 'listAutomations', method: 'GET', path: '/automations' }],
    mcp: {
      name: 'automations_list',
      kind: 'read',
      description: 'List the automation rules of the workspace, newest first, with their run counts.',
    },
  },
  {
    operation: 'AutomationCreate',
    rest: [{ operationId: 'createAutomation', method: 'POST', path: '/automations', status: 201, errors: ['CONFLICT'] }],
    mcp: {
      name: 'automations_create',
      kind: 'write',
      description:
        'Add an automation rule {name, enabled, trigger: {event}, conditions: {all|any: [{field, operator, value}]}, actions: [{type, ...}]}; try it with automations_test before enabling it.',
    },
  },
  {
    operation: 'AutomationGet',
    rest: [{ operationId: 'getAutomation', method: 'GET', path: '/automations/{id}' }],
  },
  {
    operation: 'AutomationUpdate',
    rest: [{ operationId: 'updateAutomation', method: 'PATCH', path: '/automations/{id}' }],
    mcp: {
      name: 'automations_update',
      kind: 'destructive',
      description: 'Change an automation rule: name, enabled, or its trigger, conditions or actions (replaced whole).',
    },
  },
  {
    operation: 'AutomationDelete',
    rest: [{ operationId: 'deleteAutomation', method: 'DELETE', path: '/automations/{id}' }],
    mcp: { name: 'automations_delete', kind: 'destructive', description: 'Delete an automation rule and its run log.' },
  },
  {
    operation: 'AutomationRunsList',
    rest: [{ operationId: 'listAutomationRuns', method: 'GET', path: '/automations/{id}/runs' }],
    mcp: {
      name: 'automations_runs',
      kind: 'read',
      description: "An automation rule's runs, newest first: the event, whether it matched, each action's outcome.",
    },
  },
  {
    operation: 'AutomationTest',
    rest: [{ operationId: 'testAutomation', method: 'POST', path: '/automations/{id}/test' }],
    mcp: {
      name: 'automations_test',
      kind: 'read',
      description:
        'Dry-run an automation rule on the last 100 events it could start on (or one event_id; a conversation.waiting rule: the conversations waiting now; a schedule: its next 10 due minutes): which would match and what it would do. Nothing is done.',
    },
  },
];
