// A contact's marketing consent as every contact type shows it (Customer, CustomerDetail).
import { builder } from '../builder.js';
import { oneOf } from '../shared/jsonSchemaHints.js';
import { CONSENT_SOURCES, CONSENT_STATUSES, type MarketingConsent } from '../../resolvers/contacts/consent.js';

export const MarketingConsentType = builder.objectRef<MarketingConsent>('MarketingConsent').implement({
  description:
    'Whether the contact accepts MARKETING templates: opted_out refuses them (409 CONTACT_OPTED_OUT) and campaigns skip the contact; UTILITY and AUTHENTICATION templates and replies within the window are unaffected.',
  fields: (t) => ({
    status: t.exposeString('status', oneOf(CONSENT_STATUSES)),
    source: t.exposeString('source', {
      nullable: true,
      ...oneOf(CONSENT_SOURCES, {
        note: '(keyword: the contact wrote an opt-out or opt-in keyword; provider: Meta refused a send with 131050; api or console: a person set it); null while never set',
      }),
    }),
    updated_at: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (consent) => (consent.updated_at === null ? null : new Date(consent.updated_at)),
    }),
  }),
});
