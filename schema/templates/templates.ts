// Message templates of the workspace's messaging integration, as the provider's business account holds
// them: Template, TemplateComponent and the {templates, total} list with its query; and the templates written
// here (issue 36): templateCreate, templateUpdate, templateDelete, with Meta's rules checked before submitting.
import { builder } from '../builder.js';
import { SPEC_OPTIONAL } from '../shared/specOptional.js';
import { listTemplates } from '../../resolvers/templates/templates.js';
import { createTemplate, deleteTemplate, updateTemplate } from '../../resolvers/templates/lifecycle.js';
import {
  BUTTON_TYPES,
  COMPONENT_TYPES,
  MAX_BODY,
  MAX_BUTTONS,
  MAX_LEADING_QUICK_REPLIES,
  MAX_NAME,
  MAX_URL_BUTTONS,
} from '../../resolvers/templates/templateRules.js';
import {
  HEADER_FORMATS,
  PARAMETER_FORMATS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_STATUSES,
  type Template,
  type TemplateButton,
  type TemplateComponent,
  type TemplateStatusChange,
} from '../../adapters/providers/types.js';
import { oneOf } from '../shared/jsonSchemaHints.js';

const TEMPLATE_FILTER = TEMPLATE_STATUSES.map((status) => status.toLowerCase());

const TemplateButtonRef = builder.objectRef<TemplateButton>('TemplateButton').implement({
  fields: (t) => ({
    type: t.exposeString('type', { description: 'PHONE_NUMBER, URL, QUICK_REPLY, ...' }),
    text: t.exposeString('text'),
    phone_number: t.exposeString('phone_number', { nullable: true, ...SPEC_OPTIONAL }),
    url: t.exposeString('url', {
      nullable: true,
      ...SPEC_OPTIONAL,
      description: 'May hold a {{1}} variable, so it is not always a valid URI.',
    }),
    example: t.exposeStringList('example', {
      nullable: true,
      ...SPEC_OPTIONAL,
      description: "Templates written here: a URL button's sample full URL, a copy-code button's sample code.",
    }),
  }),
});

const TemplateStatusChangeRef = builder.objectRef<TemplateStatusChange>('TemplateStatusChange').implement({
  fields: (t) => ({
    status: t.exposeString('status'),
    reason: t.exposeString('reason', { nullable: true, description: "The provider's reason for a rejection (PROMOTIONAL, ...)." }),
    at: t.exposeString('at', { description: 'When the status was recorded here (ISO 8601).' }),
  }),
});

const TemplateComponentRef = builder.objectRef<TemplateComponent>('TemplateComponent').implement({
  fields: (t) => ({
    type: t.exposeString('type', { description: 'HEADER, BODY, FOOTER or BUTTONS.' }),
    text: t.string({
      nullable: true,
      ...SPEC_OPTIONAL,
      description: 'May contain {{n}} placeholders.',
      resolve: (component) => ('text' in component ? (component.text ?? null) : null),
    }),
    format: t.string({
      nullable: true,
      ...SPEC_OPTIONAL,
      description: 'HEADER only: TEXT, IMAGE, VIDEO or DOCUMENT.',
      resolve: (component) => (component.type === 'HEADER' ? component.format : null),
    }),
    buttons: t.field({
      type: [TemplateButtonRef],
      nullable: true,
      ...SPEC_OPTIONAL,
      description: 'BUTTONS only.',
      resolve: (component) => (component.type === 'BUTTONS' ? component.buttons : null),
    }),
  }),
});

const TemplateQualityScore = builder.objectRef<NonNullable<Template['quality_score']>>('TemplateQualityScore').implement({
  fields: (t) => ({
    score: t.exposeString('score'),
    date: t.exposeInt('date', { description: 'When the score was given, in unix seconds.' }),
  }),
});

const TemplateRef = builder.objectRef<Template>('Template').implement({
  description: "A message template of the workspace's business account.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Assigned by the messaging provider.' }),
    name: t.exposeString('name'),
    status: t.exposeString('status', { description: 'PENDING, APPROVED, REJECTED, PAUSED or DISABLED.' }),
    category: t.exposeString('category', { description: 'MARKETING, UTILITY or AUTHENTICATION.' }),
    language: t.exposeString('language'),
    components: t.field({ type: [TemplateComponentRef], resolve: (template) => template.components }),
    quality_score: t.field({
      type: TemplateQualityScore,
      nullable: true,
      ...SPEC_OPTIONAL,
      resolve: (template) => template.quality_score ?? null,
    }),
    rejected_reason: t.exposeString('rejected_reason', { nullable: true, ...SPEC_OPTIONAL }),
    parameter_format: t.string({
      nullable: true,
      ...SPEC_OPTIONAL,
      description: 'Templates written here: POSITIONAL ({{1}}) or NAMED ({{first_name}}).',
      resolve: (template) => template.parameter_format ?? null,
    }),
    status_history: t.field({
      type: [TemplateStatusChangeRef],
      nullable: true,
      ...SPEC_OPTIONAL,
      description: 'Templates written here: every status the provider gave, oldest first.',
      resolve: (template) => template.status_history ?? null,
    }),
  }),
});

const TemplateList = builder.objectRef<{ templates: Template[]; total: number }>('TemplateList').implement({
  fields: (t) => ({
    templates: t.field({ type: [TemplateRef], resolve: (list) => list.templates }),
    total: t.exposeInt('total', { description: 'Number of templates returned.' }),
  }),
});

builder.queryField('templates', (t) =>
  t.field({
    type: TemplateList,
    description: "The templates of the workspace's connected messaging integration, by name and language; briefly cached.",
    authScopes: { permission: 'templates' },
    args: {
      provider: t.arg.string({ required: false, description: "The integration's provider name (sandbox, whatsapp)." }),
      status: t.arg.string({
        required: false,
        ...oneOf(TEMPLATE_FILTER, { note: '(any case)', alsoAccepted: TEMPLATE_STATUSES }),
      }),
    },
    resolve: (_root, args, ctx) => listTemplates(ctx, args),
  }),
);

const NamedExampleInput = builder.inputType('TemplateNamedExampleInput', {
  fields: (t) => ({
    param_name: t.string({ required: true, description: 'The named parameter, lowercase.' }),
    example: t.string({ required: true }),
  }),
});

const TemplateExampleInput = builder.inputType('TemplateExampleInput', {
  description: "Samples for review, as Meta's create request holds them: one per parameter.",
  fields: (t) => ({
    header_text: t.stringList({ required: false, description: "POSITIONAL: the TEXT header's {{1}} sample." }),
    header_text_named_params: t.field({ type: [NamedExampleInput], required: false, description: "NAMED: the TEXT header's sample." }),
    header_handle: t.stringList({
      required: false,
      description: 'IMAGE, VIDEO or DOCUMENT header: a sample file (an upload handle or https URL); required.',
    }),
    body_text: t.field({
      type: t.listRef(t.listRef('String', { required: true }), { required: true }),
      required: false,
      description: 'POSITIONAL: [[sample of {{1}}, sample of {{2}}, ...]].',
    }),
    body_text_named_params: t.field({ type: [NamedExampleInput], required: false, description: 'NAMED: a sample per named parameter.' }),
  }),
});

const TemplateButtonInput = builder.inputType('TemplateDefinitionButtonInput', {
  fields: (t) => ({
    type: t.string({ required: true, description: BUTTON_TYPES.join(', ') }),
    text: t.string({ required: false, description: 'The label (at most 25 characters); not for COPY_CODE.' }),
    url: t.string({ required: false, description: 'URL: the address; a dynamic suffix is {{1}} at its end.' }),
    phone_number: t.string({ required: false, description: 'PHONE_NUMBER: E.164, such as +15550100000.' }),
    example: t.stringList({
      required: false,
      description: 'URL with {{1}}: [the full sample URL]; COPY_CODE: [the sample code, at most 15 characters].',
    }),
  }),
});

const TemplateComponentInput = builder.inputType('TemplateComponentInput', {
  fields: (t) => ({
    type: t.string({ required: true, description: COMPONENT_TYPES.join(', ') + '; at most one of each, a BODY required.' }),
    format: t.string({ required: false, description: `HEADER: ${HEADER_FORMATS.join(', ')}.` }),
    text: t.string({
      required: false,
      description: `HEADER (TEXT, at most 60 characters, one parameter), BODY (at most ${MAX_BODY} characters) or FOOTER (60, no parameters).`,
    }),
    example: t.field({ type: TemplateExampleInput, required: false }),
    buttons: t.field({
      type: [TemplateButtonInput],
      required: false,
      description: `BUTTONS: at most ${MAX_BUTTONS}; quick replies grouped, at most ${MAX_LEADING_QUICK_REPLIES} before other buttons; at most ${MAX_URL_BUTTONS} URL, 1 PHONE_NUMBER, 1 COPY_CODE.`,
    }),
  }),
});

const RULES =
  `Meta's rules are checked before submitting, each a VALIDATION_ERROR naming the field: name lowercase letters, digits and underscores, at most ${MAX_NAME} characters; ` +
  `body at most ${MAX_BODY} characters, not starting or ending with a parameter; parameters {{1}}, {{2}}, ... numbered from 1 without gaps (POSITIONAL) ` +
  `or lowercase names (NAMED); an example for every parameter; at most ${MAX_BUTTONS} buttons, quick replies grouped with at most ${MAX_LEADING_QUICK_REPLIES} ` +
  `before other buttons, at most ${MAX_URL_BUTTONS} URL buttons.`;

builder.mutationFields((t) => ({
  templateCreate: t.field({
    type: TemplateRef,
    description: `Writes a template and submits it to the integration's provider for review (status PENDING; the outcome arrives as template.status). ${RULES}`,
    authScopes: { permission: 'templates' },
    args: {
      provider: t.arg.string({ required: false, description: "The integration's provider name (sandbox, whatsapp)." }),
      name: t.arg.string({ required: true }),
      language: t.arg.string({ required: true, description: 'Such as en_US or pt_BR.' }),
      category: t.arg.string({ required: true, ...oneOf(TEMPLATE_CATEGORIES) }),
      parameter_format: t.arg.string({ required: false, description: `${PARAMETER_FORMATS.join(' or ')}; POSITIONAL when not given.` }),
      components: t.arg({ type: [TemplateComponentInput], required: true }),
    },
    resolve: (_root, args, ctx) => createTemplate(ctx, args as Parameters<typeof createTemplate>[1]),
  }),
  templateUpdate: t.field({
    type: TemplateRef,
    description: `Submits a template written here again with new components and/or category (not while PENDING). ${RULES}`,
    authScopes: { permission: 'templates' },
    args: {
      id: t.arg.id({ required: true, description: "The template's id (the provider's)." }),
      category: t.arg.string({ required: false, ...oneOf(TEMPLATE_CATEGORIES) }),
      components: t.arg({ type: [TemplateComponentInput], required: false }),
    },
    resolve: (_root, args, ctx) => updateTemplate(ctx, { ...args, id: String(args.id) } as Parameters<typeof updateTemplate>[1]),
  }),
  templateDelete: t.field({
    type: TemplateRef,
    description: 'Deletes a template written here, at the provider and here; returns it as it was.',
    authScopes: { permission: 'templates' },
    args: { id: t.arg.id({ required: true, description: "The template's id (the provider's)." }) },
    resolve: (_root, args, ctx) => deleteTemplate(ctx, { id: String(args.id) }),
  }),
}));
