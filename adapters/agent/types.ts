// What an agent is given and what it decides. The runner (workers/agent) gathers the input from the domain and
// carries the decision out: it sends the reply through the normal send path, or hands the conversation to people.
// Agents here know nothing of the database: tools reach the domain through the runner's `runTool`.

export type AgentPassage = { document_id: string; title: string; text: string; rank: number };

/** A sentence of a document ranked against the question: score in [0, 1] (resolvers/agent/retrieval.ts). */
export type AgentSentence = {
  id: string;
  document_id: string;
  title: string;
  passage: number;
  position: number;
  text: string;
  language: string;
  score: number;
};

/** An FAQ whose question was ranked against the customer's. */
export type AgentFaq = { faq_id: string; question: string; answer: string; language: string; score: number };

/** What the workspace's knowledge holds for the question, in the customer's language when it has that language. */
export type AgentKnowledge = {
  /** The customer's language: detected in the question, else in the previous one, else the workspace's default. */
  language: string;
  /** The languages the knowledge is written in. */
  languages: string[];
  /** True when nothing is written in the customer's language (then faq and sentences are empty). */
  languageMissing: boolean;
  /** The best FAQ, if any question shares a word with the customer's. */
  faq: AgentFaq | null;
  /** The best sentences, best first. */
  sentences: AgentSentence[];
  /** Whether the question was read as a follow-up of the previous one ("and to France?"). */
  followUp: boolean;
};

/** What a reply was drawn from; runs record it (agentRuns.answer_source). */
export type AnswerSource =
  | { kind: 'sentence'; document_id: string; title: string; sentence_ids: string[]; text: string; score: number }
  | { kind: 'faq'; faq_id: string; question: string; score: number }
  | { kind: 'model'; cited: { document_id: string | null; title: string }[] }
  | { kind: 'no_answer' | 'language'; best_score: number | null };

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
  knowledge: AgentKnowledge;
  /** Whether the agent's previous answer on this conversation was a miss (it said it had no answer). */
  missedBefore: boolean;
  /** Said once, before the agent's first answer on a conversation; null when the agent has answered before or none is set. */
  greeting: string | null;
};

export type ToolCallRecord = { name: string; arguments: unknown; result: unknown };

export type AgentUsage = { modelCalls: number; promptTokens: number; completionTokens: number };

/** The hand-off reasons an agent itself gives; the runner adds its own rules' reasons. */
export type AgentHandOffReason = 'no_confident_answer' | 'model_failure' | 'budget' | 'model_request';

export type AgentDecision = (
  | { kind: 'reply'; text: string; source: AnswerSource | null; explanation: string }
  | { kind: 'handoff'; reason: AgentHandOffReason; detail: string }
) & {
  toolCalls: ToolCallRecord[];
  usage: AgentUsage;
};

export type ConversationAgent = { decide(input: AgentInput): Promise<AgentDecision> };

export const NO_USAGE: AgentUsage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
