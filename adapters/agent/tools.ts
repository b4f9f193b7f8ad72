// The tools the `llm` agent may call through function calling, as the model sees them. The runner
// (workers/agent/tools.ts) runs each one through the service's GraphQL operations under the agent's actor;
// the contact a tool acts on is always the conversation's own, never one the model names.
import type { ChatTool } from './chatClient.js';

export const AGENT_TOOL_NAMES = ['free_slots', 'book_appointment', 'update_contact', 'tag_contact', 'hand_off'] as const;
export type AgentToolName = (typeof AGENT_TOOL_NAMES)[number];

export function isAgentToolName(name: string): name is AgentToolName {
  return (AGENT_TOOL_NAMES as readonly string[]).includes(name);
}

const tool = (name: AgentToolName, description: string, properties: Record<string, unknown>, required: string[] = []): ChatTool => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
});

export const AGENT_TOOLS: readonly ChatTool[] = [
  tool('free_slots', 'Free appointment slots. Without appointment_type_id, lists the appointment types offered. Times are ISO 8601.', {
    appointment_type_id: { type: 'string', description: 'The id of an appointment type.' },
    from: { type: 'string', description: 'Start of the range (ISO 8601); default now.' },
    days: { type: 'integer', minimum: 1, maximum: 14, description: 'Length of the range in days; default 7.' },
  }),
  tool(
    'book_appointment',
    "Books an appointment for this conversation's contact at a free slot's start_at.",
    {
      appointment_type_id: { type: 'string' },
      start_at: { type: 'string', description: 'ISO 8601 start of a free slot.' },
      notes: { type: 'string' },
    },
    ['appointment_type_id', 'start_at'],
  ),
  tool('update_contact', "Updates this conversation's contact with what the contact told you.", {
    name: { type: 'string' },
    email: { type: 'string' },
    notes: { type: 'string' },
  }),
  tool('tag_contact', "Tags this conversation's contact (the tag is created when new).", { tag: { type: 'string' } }, ['tag']),
  tool('hand_off', 'Hands the conversation to a person of the team when you cannot or should not answer.', { reason: { type: 'string' } }, [
    'reason',
  ]),
];
