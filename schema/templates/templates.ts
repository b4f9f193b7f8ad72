// Message templates of the workspace's messaging integration, as the provider's business account holds
// them: Template, TemplateComponent and the {templates, total} list with its query.
import { builder } from '../builder.js';
import { SPEC_OPTIONAL } from '../shared/specOptional.js';
import { listTemplates } from '../../resolvers/templates/templates.js';
import { TEMPLATE_STATUSES, type Template, type TemplateButton, type TemplateComponent } from '../../adapters/providers/types.js';
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
