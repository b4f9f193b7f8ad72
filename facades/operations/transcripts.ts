// Where the transcript operations (transcripts.graphql) are exposed: a conversation's messages, one message and
// a search over message bodies, under the conversations scope. MCP tools answer exactly the REST JSON.
import type { FacadeEntry } from '../core/table.js';

export const TRANSCRIPTS: readonly FacadeEntry[] = [
  {
    operation: 'ConversationMessages',
    rest: [{ operationId: 'listConversationMessages', method: 'GET', path: '/conversations/{conversation_id}/messages' }],
    mcp: {
      name: 'conversations_messages',
      kind: 'read',
      description:
        "Read a conversation's messages, newest first (limit 1-100, default 50). Pass next_cursor as before for older messages; after (a message id) reads the messages newer than it.",
    },
  },
  {
    operation: 'MessageSearch',
    rest: [{ operationId: 'searchMessages', method: 'GET', path: '/messages/search' }],
    mcp: {
      name: 'messages_search',
      kind: 'read',
      description: 'Find messages whose text contains q (case-insensitive), newest first; optionally within one conversation.',
    },
  },
  {
    operation: 'Message',
    rest: [{ operationId: 'getMessage', method: 'GET', path: '/messages/{id}' }],
    mcp: { name: 'messages_get', kind: 'read', description: 'Get one message with its type, media, sender, delivery times and error.' },
  },
];
