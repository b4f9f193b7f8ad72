// Where the knowledge operations (knowledge.graphql) are exposed.
import type { FacadeEntry } from '../core/table.js';

export const KNOWLEDGE: readonly FacadeEntry[] = [
  {
    operation: 'KnowledgeDocumentsList',
    rest: [{ operationId: 'listKnowledgeDocuments', method: 'GET', path: '/knowledge/documents' }],
    mcp: { name: 'knowledge_list', kind: 'read', description: 'List the knowledge documents of the AI agent, newest first.' },
  },
  {
    operation: 'KnowledgeDocumentCreate',
    rest: [
      { operationId: 'createKnowledgeDocument', method: 'POST', path: '/knowledge/documents', status: 201, errors: ['PAYLOAD_TOO_LARGE'] },
    ],
    mcp: { name: 'knowledge_create', kind: 'write', description: 'Add a knowledge document from a title and text.' },
  },
  {
    operation: 'KnowledgeDocumentUpload',
    rest: [
      {
        operationId: 'uploadKnowledgeDocument',
        method: 'POST',
        path: '/knowledge/documents/upload',
        status: 201,
        errors: ['PAYLOAD_TOO_LARGE'],
      },
    ],
    mcp: {
      name: 'knowledge_upload',
      kind: 'write',
      description:
        'Add a knowledge document from a file given as {content_base64, filename, content_type}: text/plain, text/markdown or text/html (converted to text).',
    },
  },
  {
    operation: 'KnowledgeDocumentGet',
    rest: [{ operationId: 'getKnowledgeDocument', method: 'GET', path: '/knowledge/documents/{id}' }],
    mcp: { name: 'knowledge_get', kind: 'read', description: 'Get one knowledge document with its text.' },
  },
  {
    operation: 'KnowledgeDocumentUpdate',
    rest: [{ operationId: 'updateKnowledgeDocument', method: 'PATCH', path: '/knowledge/documents/{id}', errors: ['PAYLOAD_TOO_LARGE'] }],
    mcp: { name: 'knowledge_update', kind: 'destructive', description: 'Change the title or text of a knowledge document.' },
  },
  {
    operation: 'KnowledgeDocumentDelete',
    rest: [{ operationId: 'deleteKnowledgeDocument', method: 'DELETE', path: '/knowledge/documents/{id}' }],
    mcp: { name: 'knowledge_delete', kind: 'destructive', description: 'Delete a knowledge document.' },
  },
  {
    operation: 'KnowledgeSearch',
    rest: [{ operationId: 'searchKnowledge', method: 'GET', path: '/knowledge/search' }],
    mcp: {
      name: 'knowledge_search',
      kind: 'read',
      description:
        "What the AI agent would answer a question from: the best FAQ and sentences with the agent's scores and threshold, and the documents best first with highlighted snippets, in the question's language.",
    },
  },
  {
    operation: 'KnowledgeUsage',
    rest: [{ operationId: 'knowledgeUsage', method: 'GET', path: '/knowledge/usage' }],
    mcp: {
      name: 'knowledge_usage_summary',
      kind: 'read',
      description: "The documents and FAQs the AI agent's replies in a date range [from, to) were drawn from, most used first.",
    },
  },
  {
    operation: 'KnowledgeFaqsList',
    rest: [{ operationId: 'listKnowledgeFaqs', method: 'GET', path: '/knowledge/faqs' }],
    mcp: { name: 'knowledge_faqs_list', kind: 'read', description: 'List the FAQs the AI agent answers with, newest first.' },
  },
  {
    operation: 'KnowledgeFaqCreate',
    rest: [{ operationId: 'createKnowledgeFaq', method: 'POST', path: '/knowledge/faqs', status: 201 }],
    mcp: {
      name: 'knowledge_faqs_create',
      kind: 'write',
      description:
        'Add an FAQ (a question and its answer); the AI agent matches FAQs before documents and replies with the answer as written.',
    },
  },
  {
    operation: 'KnowledgeFaqGet',
    rest: [{ operationId: 'getKnowledgeFaq', method: 'GET', path: '/knowledge/faqs/{id}' }],
  },
  {
    operation: 'KnowledgeFaqUpdate',
    rest: [{ operationId: 'updateKnowledgeFaq', method: 'PATCH', path: '/knowledge/faqs/{id}' }],
    mcp: { name: 'knowledge_faqs_update', kind: 'destructive', description: 'Change the question, answer or language of an FAQ.' },
  },
  {
    operation: 'KnowledgeFaqDelete',
    rest: [{ operationId: 'deleteKnowledgeFaq', method: 'DELETE', path: '/knowledge/faqs/{id}' }],
    mcp: { name: 'knowledge_faqs_delete', kind: 'destructive', description: 'Delete an FAQ.' },
  },
];
