// The AI agent of a conversation: when a conversation has service_enabled on, every inbound message is
// handed to the agent. The default agent does nothing; a real one (an LLM assistant, a bot) implements
// ConversationAgent and replies through the API like any other client.
import type { MessageEventData } from '../resolvers/messageViews.js';

export type AgentHandOff = MessageEventData & { workspaceId: string };

export interface ConversationAgent {
  onInboundMessage(handOff: AgentHandOff): Promise<void>;
}

/** The default: accepts every hand-off and does nothing with it. */
export const idleAgent: ConversationAgent = {
  async onInboundMessage() {},
};
