// Marketing consent: a contact's consent (MarketingConsent on Customer and CustomerDetail, contactConsentSet) and
// the workspace's consent settings (keywords and confirmation texts). The rules: docs/api-decisions.md, "Consent".
import { builder } from '../builder.js';
import { oneOf } from '../shared/jsonSchemaHints.js';
import { CustomerDetail } from './contacts.js';
import { CONSENT_STATUSES, SETTABLE_CONSENT_SOURCES, setContactConsent } from '../../resolvers/contacts/consent.js';
import { consentSettings, updateConsentSettings, type ConsentSettings } from '../../resolvers/contacts/consentSettings.js';

const ConsentSettingsType = builder.objectRef<ConsentSettings>('ConsentSettings').implement({
  description:
    "The workspace's consent keywords: an inbound message whose whole text (trimmed, case-insensitive) is one of them opts its contact out or back in, and is answered with the confirmation text when one is set.",
  fields: (t) => ({
    opt_out_keywords: t.exposeStringList('opt_out_keywords', { description: 'Default STOP, UNSUBSCRIBE, PARAR, BAJA.' }),
    opt_in_keywords: t.exposeStringList('opt_in_keywords', { description: 'Default START, SUBSCRIBE.' }),
    opt_out_confirmation: t.exposeString('opt_out_confirmation', {
      nullable: true,
      description: 'Sent after an opt-out keyword; none when null.',
    }),
    opt_in_confirmation: t.exposeString('opt_in_confirmation', {
      nullable: true,
      description: 'Sent after an opt-in keyword; none when null.',
    }),
  }),
});

builder.queryFields((t) => ({
  consentSettings: t.field({
    type: ConsentSettingsType,
    description: "The workspace's opt-out and opt-in keywords and confirmation texts.",
    authScopes: { permission: 'customers:read' },
    resolve: (_root, _args, ctx) => consentSettings(ctx),
  }),
}));

builder.mutationFields((t) => ({
  contactConsentSet: t.field({
    type: CustomerDetail,
    description:
      'Record a contact’s marketing consent with its source (api by default, console from the console). Records contact.consent when the status changes.',
    authScopes: { permission: 'customers' },
    args: {
      id: t.arg.id({ required: true }),
      status: t.arg.string({ required: true, ...oneOf(CONSENT_STATUSES) }),
      source: t.arg.string({ required: false, ...oneOf(SETTABLE_CONSENT_SOURCES, { note: '(default api)' }) }),
    },
    resolve: (_root, args, ctx) => setContactConsent(ctx, args),
  }),
  consentSettingsUpdate: t.field({
    type: ConsentSettingsType,
    description:
      'Change the opt-out and opt-in keywords (each list replaces the stored one; stored upper-cased) and the confirmation texts (null or empty: none). A keyword may not be in both lists. Needs the campaigns scope (owners and admins): the keywords decide who gets marketing.',
    authScopes: { permission: 'campaigns' },
    args: {
      opt_out_keywords: t.arg.stringList({ required: false }),
      opt_in_keywords: t.arg.stringList({ required: false }),
      opt_out_confirmation: t.arg.string({ required: false }),
      opt_in_confirmation: t.arg.string({ required: false }),
    },
    resolve: (_root, args, ctx) => updateConsentSettings(ctx, args),
  }),
}));
