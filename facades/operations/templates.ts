// Where the template operations (templates.graphql) are exposed. The spec's /api/v1/chat/templates: "chat"
// stands for the provider's name (`sandbox`, `whatsapp`); /api/v1/templates takes it as an optional parameter.
import type { ErrorCode } from '../../resolvers/shared/errors.js';
import type { FacadeEntry } from '../core/table.js';

const TEMPLATE_ERRORS: readonly ErrorCode[] = ['INTEGRATION_NOT_FOUND', 'PROVIDER_ERROR'];

export const TEMPLATES: readonly FacadeEntry[] = [
  {
    operation: 'Templates',
    rest: [
      {
        operationId: 'listProviderTemplates',
        method: 'GET',
        path: '/{provider}/templates',
        guideKey: 'templates',
        errors: TEMPLATE_ERRORS,
      },
      {
        operationId: 'listTemplates',
        method: 'GET',
        path: '/templates',
        guideKey: 'templates',
        errors: TEMPLATE_ERRORS,
      },
    ],
    mcp: {
      name: 'templates_list',
      kind: 'read',
      description:
        "List the message templates of the workspace's messaging integration; filter by status (approved, pending, rejected, paused, disabled).",
    },
  },
];
