// What an agent is given and what it decides. The runner (workers/agent) gathers the input from the domain and
// carries the decision out: it sends the reply through the normal send path, or hands the conversation to people.
// Agents here know nothing of the database: tools reach the domain through the runner's `runTool`.

export type AgentPassage = { document_id: string; title: string; text: string; rank: number };

export type AgentTurn = { from: 'contact' | 'agent' | 'person'; body: string };

export type AgentInput = {
  /** The inbound message to answer. */
  question: string;
  /** The conversation so far, oldest first, ending with the question. */
  recent: AgentTurn[];
  contact: {
    name: string | null;
    phone_number: string | null;
    email: string | null;
    notes: string | null;
    metadata: unknown;
    tags: string[];
  };
  passages: AgentPassage[];
  /** Said once, before the agent's first answer on a conversation; null when the agent has answered before or none is set. */
  greeting: string | null;
};

export type ToolCallRecord = { name: string; arguments: unknown; result: unknown };

export type AgentUsage = { modelCalls: number; promptTokens: number; completionTokens: number };

/** The hand-off reasons an agent itself gives; the runner adds its own rules' reasons. */
export type AgentHandOffReason = 'no_confident_answer' | 'model_failure' | 'budget' | 'model_request';

export type AgentDecision = ({ kind: 'reply'; text: string } | { kind: 'handoff'; reason: AgentHandOffReason; detail: string }) & {
  toolCalls: ToolCallRecord[];
  usage: AgentUsage;
};

export type ConversationAgent = { decide(input: AgentInput): Promise<AgentDecision> };

export const NO_USAGE: AgentUsage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
