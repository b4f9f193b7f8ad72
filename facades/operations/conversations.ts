// Where the conversation, note and summary operations (conversations.graphql) are exposed.
import type { FacadeEntry } from '../core/table.js';

export const CONVERSATIONS: readonly FacadeEntry[] = [
  {
    operation: 'Conversations',
    rest: [{ operationId: 'listConversations', method: 'GET', path: '/conversations', guideKey: 'conversations' }],
    mcp: {
      name: 'conversations_list',
      kind: 'read',
      description:
        'List conversations by latest inbound message, newest first; filter by status (active, pending, closed) or assigned_user_id. Pass next_cursor as before for the next page.',
    },
  },
  {
    operation: 'ConversationSearch',
    rest: [{ operationId: 'searchConversations', method: 'GET', path: '/conversations/search', guideKey: 'conversations' }],
    mcp: {
      name: 'conversations_search',
      kind: 'read',
      description: "Find conversations by the contact's name, phone number or email, or by text in their messages.",
    },
  },
  {
    operation: 'Conversation',
    rest: [{ operationId: 'getConversation', method: 'GET', path: '/conversations/{id}' }],
    mcp: { name: 'conversations_get', kind: 'read', description: 'Get one conversation with its contact.' },
  },
  {
    operation: 'ConversationUpdate',
    rest: [{ operationId: 'updateConversation', method: 'PATCH', path: '/conversations/{id}' }],
    mcp: {
      name: 'conversations_update',
      kind: 'destructive',
      description:
        'Assign a conversation to a user of the workspace (null unassigns), switch its AI agent (service_enabled) or replace its details.',
    },
  },
  {
    operation: 'ConversationClose',
    rest: [{ operationId: 'closeConversation', method: 'POST', path: '/conversations/{id}/close', errors: ['INVALID_TRANSITION'] }],
    mcp: {
      name: 'conversations_close',
      kind: 'destructive',
      description: 'Close an active or pending conversation. Closing a closed one is an INVALID_TRANSITION error.',
    },
  },
  {
    operation: 'ConversationReopen',
    rest: [{ operationId: 'reopenConversation', method: 'POST', path: '/conversations/{id}/reopen', errors: ['INVALID_TRANSITION'] }],
    mcp: {
      name: 'conversations_reopen',
      kind: 'destructive',
      description: 'Reopen a closed conversation (it becomes active). Reopening an open one is an INVALID_TRANSITION error.',
    },
  },
  {
    operation: 'ConversationNotes',
    rest: [{ operationId: 'listConversationNotes', method: 'GET', path: '/conversations/{conversation_id}/notes' }],
    mcp: { name: 'conversation_notes_list', kind: 'read', description: "List a conversation's internal notes, newest first." },
  },
  {
    operation: 'ConversationNoteCreate',
    rest: [{ operationId: 'createConversationNote', method: 'POST', path: '/conversations/{conversation_id}/notes', status: 201 }],
    mcp: {
      name: 'conversation_notes_create',
      kind: 'write',
      description: 'Add an internal note to a conversation (never sent to the contact).',
    },
  },
  {
    operation: 'ConversationNoteUpdate',
    rest: [{ operationId: 'updateConversationNote', method: 'PATCH', path: '/conversations/notes/{id}' }],
    mcp: { name: 'conversation_notes_update', kind: 'destructive', description: 'Replace the text of a note.' },
  },
  {
    operation: 'ConversationNoteDelete',
    rest: [{ operationId: 'deleteConversationNote', method: 'DELETE', path: '/conversations/notes/{id}' }],
    mcp: { name: 'conversation_notes_delete', kind: 'destructive', description: 'Delete a note.' },
  },
  {
    operation: 'ConversationSummaries',
    rest: [{ operationId: 'listConversationSummaries', method: 'GET', path: '/conversations/{conversation_id}/summaries' }],
    mcp: { name: 'conversation_summaries_list', kind: 'read', description: "List a conversation's summaries, newest first." },
  },
  {
    operation: 'ConversationSummaryCreate',
    rest: [{ operationId: 'createConversationSummary', method: 'POST', path: '/conversations/{conversation_id}/summaries', status: 201 }],
    mcp: { name: 'conversation_summaries_create', kind: 'write', description: 'Add a summary to a conversation.' },
  },
  {
    operation: 'ConversationSummaryUpdate',
    rest: [{ operationId: 'updateConversationSummary', method: 'PATCH', path: '/conversations/summaries/{id}' }],
    mcp: { name: 'conversation_summaries_update', kind: 'destructive', description: 'Replace the text of a summary.' },
  },
  {
    operation: 'ConversationSummaryDelete',
    rest: [{ operationId: 'deleteConversationSummary', method: 'DELETE', path: '/conversations/summaries/{id}' }],
    mcp: { name: 'conversation_summaries_delete', kind: 'destructive', description: 'Delete a summary.' },
  },
];
