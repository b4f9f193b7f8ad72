// Hands inbound messages to the agent without holding up the provider webhook (which must answer fast):
// the agent is called at once, its work runs on in the background, and a failure is reported, not thrown.
// close() waits for hand-offs under way, so a shutdown does not cut an agent off mid-reply.
import type { AgentHandOff, ConversationAgent } from './agent.js';

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
        work = Promise.reject(error);
      }
      const tracked = work.catch((error: unknown) => onError(error, handOff)).finally(() => running.delete(tracked));
      running.add(tracked);
    },
    async close() {
      await Promise.allSettled([...running]);
    },
  };
}
