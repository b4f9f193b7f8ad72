// The AI agent of a conversation: when a conversation has service_enabled on, every inbound message is
// handed to the agent. The default agent does nothing; a real one (an LLM assistant, a bot) implements
// ConversationAgent and replies through the API like any other client.
// The dispatcher hands inbound messages over without holding up the provider webhook (which must answer
// fast): the agent is called at once, its work runs on in the background, and a failure is reported, not
// thrown. close() waits for hand-offs under way, so a shutdown does not cut an agent off mid-reply.
import type { MessageEventData } from './views.js';

export type AgentHandOff = MessageEventData & { workspaceId: string };

export interface ConversationAgent {
  onInboundMessage(handOff: AgentHandOff): Promise<void>;
}

/** The default: accepts every hand-off and does nothing with it. */
export const idleAgent: ConversationAgent = {
  async onInboundMessage() {},
};

export type AgentDispatcher = {
  handOff(handOff: AgentHandOff): void;
  close(): Promise<void>;
};

export function createAgentDispatcher(agent: ConversationAgent, onError: (error: unknown, handOff: AgentHandOff) => void): AgentDispatcher {
  const running = new Set<Promise<void>>();
  return {
    handOff(handOff) {
      let work: Promise<void>;
      try {
        work = agent.onInboundMessage(handOff);
      } catch (error) {
        work = Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const tracked = work.catch((error: unknown) => onError(error, handOff)).finally(() => running.delete(tracked));
      running.add(tracked);
    },
    async close() {
      await Promise.allSettled([...running]);
    },
  };
}
