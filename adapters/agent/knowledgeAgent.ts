// The `knowledge` agent, the default: it needs nothing outside the service. It answers with the best passage of
// the workspace's knowledge documents, word for word, when that passage's rank clears the workspace's threshold,
// and otherwise hands the conversation to people: it never writes a sentence of its own beyond the greeting.
import { NO_USAGE, type AgentDecision, type AgentInput, type ConversationAgent } from './types.js';

export function knowledgeAgent(options: { threshold: number }): ConversationAgent {
  return {
    async decide(input: AgentInput): Promise<AgentDecision> {
      const best = input.passages[0];
      if (!best || best.rank < options.threshold) {
        const detail = best
          ? `the best knowledge passage ranks ${best.rank.toFixed(2)}, below the threshold ${options.threshold}`
          : 'no knowledge document matches the question';
        return { kind: 'handoff', reason: 'no_confident_answer', detail, toolCalls: [], usage: NO_USAGE };
      }
      const text = input.greeting ? `${input.greeting}\n\n${best.text}` : best.text;
      return { kind: 'reply', text, toolCalls: [], usage: NO_USAGE };
    },
  };
}
