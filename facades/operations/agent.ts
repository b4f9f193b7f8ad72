// Where the AI agent operations (agent.graphql) are exposed.
import type { FacadeEntry } from '../core/table.js';

export const AGENT: readonly FacadeEntry[] = [
  {
    operation: 'AgentSettingsGet',
    rest: [{ operationId: 'getAgentSettings', method: 'GET', path: '/agent' }],
    mcp: { name: 'agent_settings_get', kind: 'read', description: "Get the workspace's AI agent settings (the API key is never shown)." },
  },
  {
    operation: 'AgentSettingsUpdate',
    rest: [{ operationId: 'updateAgentSettings', method: 'PATCH', path: '/agent' }],
    mcp: {
      name: 'agent_settings_update',
      kind: 'destructive',
      description:
        'Change the AI agent settings: kind (knowledge or llm), the llm endpoint (llm_base_url, llm_model, llm_api_key), prompt, hand-off rules, budgets and limits.',
    },
  },
  {
    operation: 'AgentRunsList',
    rest: [{ operationId: 'listAgentRuns', method: 'GET', path: '/conversations/{conversation_id}/agent-runs' }],
    mcp: {
      name: 'agent_runs_list',
      kind: 'read',
      description:
        "The AI agent's runs on a conversation, newest first: trigger message, passages, tool calls, reply or hand-off, tokens, latency.",
    },
  },
  {
    operation: 'AgentRunsRecent',
    rest: [{ operationId: 'listRecentAgentRuns', method: 'GET', path: '/agent/runs' }],
    mcp: {
      name: 'agent_runs_recent_list',
      kind: 'read',
      description:
        "The AI agent's runs on every conversation, newest first, optionally of one status (replied: its replies, each with the sentence or FAQ it answered from and why).",
    },
  },
];
