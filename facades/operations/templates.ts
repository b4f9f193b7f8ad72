// Where the template operations (templates.graphql) are exposed. The spec's /api/v1/chat/templates: "chat"
// stands for the provider's name (`sandbox`, `whatsapp`); /api/v1/templates takes it as an optional parameter.
import type { ErrorCode } from '../../resolvers/shared/errors.js';
import type { FacadeEntry } from '../core/table.js';

const TEMPLATE_ERRORS: readonly ErrorCode[] = ['INTEGRATION_NOT_FOUND', 'PROVIDER_ERROR'];
const WRITE_ERRORS: readonly ErrorCode[] = ['NOT_FOUND', 'CONFLICT'];

/** Meta's rules, as each write's tool states them (the schema's field descriptions carry them into OpenAPI). */
const RULES =
  "Meta's rules are checked before submitting, each a 400 VALIDATION_ERROR naming the field: name lowercase letters, digits and underscores (at most 512); " +
  'body at most 1024 characters, not starting or ending with a parameter; parameters {{1}}, {{2}}... from 1 without gaps (POSITIONAL) or lowercase names (NAMED); ' +
  'an example for every parameter (example.body_text [[...]], example.header_text, *_named_params); at most 10 buttons, quick replies grouped with at most 3 before other buttons, ' +
  'at most 2 URL buttons, 1 PHONE_NUMBER, 1 COPY_CODE.';

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
  {
    operation: 'TemplateCreate',
    rest: [
      {
        operationId: 'createTemplate',
        method: 'POST',
        path: '/templates',
        status: 201,
        errors: ['INTEGRATION_NOT_FOUND', 'CONFLICT', 'PROVIDER_ERROR'],
      },
    ],
    mcp: {
      name: 'templates_create',
      kind: 'write',
      description:
        'Write a message template {name, language, category (MARKETING, UTILITY, AUTHENTICATION), parameter_format (POSITIONAL, NAMED), components} ' +
        "in Meta's form (HEADER text/image/video/document/location, BODY, FOOTER, BUTTONS: QUICK_REPLY, URL with a {{1}} suffix, PHONE_NUMBER, COPY_CODE, with examples) " +
        `and submit it for review; it is PENDING until the provider decides (template.status event). ${RULES}`,
    },
  },
  {
    operation: 'TemplateUpdate',
    rest: [{ operationId: 'updateTemplate', method: 'PATCH', path: '/templates/{id}', errors: WRITE_ERRORS }],
    mcp: {
      name: 'templates_update',
      kind: 'destructive',
      description: `Change the components and/or category of a template written here and submit it for review again (not while PENDING). ${RULES}`,
    },
  },
  {
    operation: 'TemplateDelete',
    rest: [{ operationId: 'deleteTemplate', method: 'DELETE', path: '/templates/{id}', errors: ['NOT_FOUND'] }],
    mcp: { name: 'templates_delete', kind: 'destructive', description: 'Delete a template written here, at the provider and here.' },
  },
];
