// Where the contact and tag operations (contacts.graphql) are exposed. The customers routes are the spec's deprecated
// aliases of the contacts routes: the same operation, a second route.
import type { FacadeEntry } from '../core/table.js';

/** The customers routes were published already deprecated in favour of the contacts routes (RFC 9745 date). */
const CUSTOMERS_DEPRECATED_SINCE = new Date('2026-01-01T00:00:00Z');

export const CONTACTS: readonly FacadeEntry[] = [
  {
    operation: 'Contacts',
    rest: [
      { operationId: 'listContacts', method: 'GET', path: '/contacts', guideKey: 'customers' },
      {
        operationId: 'listCustomers',
        method: 'GET',
        path: '/customers',
        guideKey: 'customers',
        deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts' },
      },
    ],
    mcp: {
      name: 'contacts_list',
      kind: 'read',
      description: 'List contacts, newest first; filter by search text or tag_id. Pass next_cursor as cursor for the next page.',
    },
  },
  {
    operation: 'ContactCreate',
    rest: [{ operationId: 'createContact', method: 'POST', path: '/contacts', status: 201, errors: ['CONFLICT'] }],
    mcp: {
      name: 'contacts_create',
      kind: 'write',
      description: 'Create a contact. Give at least one of name, phone_number (E.164), wa_id or email.',
    },
  },
  {
    operation: 'ContactSearch',
    rest: [
      { operationId: 'searchContacts', method: 'GET', path: '/contacts/search', guideKey: 'customers' },
      {
        operationId: 'searchCustomers',
        method: 'GET',
        path: '/customers/search',
        guideKey: 'customers',
        deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts/search' },
      },
    ],
    mcp: { name: 'contacts_search', kind: 'read', description: 'Find contacts whose name, phone number or email contains q.' },
  },
  {
    operation: 'ContactsBulkImport',
    rest: [{ operationId: 'importContacts', method: 'POST', path: '/contacts/import' }],
    mcp: {
      name: 'contacts_bulk_import',
      kind: 'write',
      description:
        'Create many contacts in one call (up to 500). Each row succeeds or fails on its own; a failed row writes nothing and reports its error.',
    },
  },
  {
    operation: 'Contact',
    rest: [
      { operationId: 'getContact', method: 'GET', path: '/contacts/{id}' },
      {
        operationId: 'getCustomer',
        method: 'GET',
        path: '/customers/{id}',
        deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts/{id}' },
      },
    ],
    mcp: {
      name: 'contacts_get',
      kind: 'read',
      description: 'Get one contact with its profile, notes, tag names, last inbound message time and conversation count.',
    },
  },
  {
    operation: 'ContactTimeline',
    rest: [{ operationId: 'getContactTimeline', method: 'GET', path: '/contacts/{id}/timeline' }],
    mcp: {
      name: 'contacts_timeline',
      kind: 'read',
      description:
        "A contact's whole story, newest first: conversations (when each began), campaigns it received (with its message's status), appointments (when booked), marketing consent changes, notes on its conversations and tags (when assigned). Each entry has kind, at, id and the item under the field named by its kind. Pass next_cursor as cursor for the next page.",
    },
  },
  {
    operation: 'ContactUpdate',
    rest: [{ operationId: 'updateContact', method: 'PATCH', path: '/contacts/{id}', errors: ['CONFLICT'] }],
    mcp: {
      name: 'contacts_update',
      kind: 'destructive',
      description: 'Change fields of a contact: omitted fields stay, null clears a field.',
    },
  },
  {
    operation: 'ContactDelete',
    rest: [{ operationId: 'deleteContact', method: 'DELETE', path: '/contacts/{id}' }],
    mcp: {
      name: 'contacts_delete',
      kind: 'destructive',
      description: 'Delete a contact together with its conversations, their messages, notes and summaries. Cannot be undone.',
    },
  },
  {
    operation: 'ContactChannels',
    rest: [{ operationId: 'listContactChannels', method: 'GET', path: '/contacts/{customer_id}/channels' }],
    mcp: {
      name: 'contact_channels_list',
      kind: 'read',
      description:
        "List a contact's identities (phone, wa_id, email, per provider); the primary one of each type is the contact's own field.",
    },
  },
  {
    operation: 'ContactChannelAdd',
    rest: [
      { operationId: 'addContactChannel', method: 'POST', path: '/contacts/{customer_id}/channels', status: 201, errors: ['CONFLICT'] },
    ],
    mcp: {
      name: 'contact_channels_add',
      kind: 'write',
      description: "Add an identity (phone, wa_id or email) to a contact; is_primary makes it the contact's field of that type.",
    },
  },
  {
    operation: 'ContactConsentSet',
    rest: [{ operationId: 'setContactConsent', method: 'PUT', path: '/contacts/{id}/consent' }],
    mcp: {
      name: 'contacts_consent_update',
      kind: 'write',
      description:
        "Record a contact's marketing consent: status opted_in, opted_out or unknown, source api (default) or console. An opted-out contact gets no MARKETING template (409 CONTACT_OPTED_OUT) and campaigns skip it; UTILITY and AUTHENTICATION templates and replies within the 24-hour window still go. Contacts also opt out themselves by writing a keyword (STOP…) and Meta's error 131050 opts them out (source provider).",
    },
  },
  {
    operation: 'ConsentSettings',
    rest: [{ operationId: 'getConsentSettings', method: 'GET', path: '/consent-settings' }],
    mcp: {
      name: 'consent_settings_get',
      kind: 'read',
      description:
        "The workspace's opt-out keywords (default STOP, UNSUBSCRIBE, PARAR, BAJA), opt-in keywords (START, SUBSCRIBE) and the texts that confirm them.",
    },
  },
  {
    operation: 'ConsentSettingsUpdate',
    rest: [{ operationId: 'updateConsentSettings', method: 'PATCH', path: '/consent-settings' }],
    mcp: {
      name: 'consent_settings_update',
      kind: 'write',
      description:
        'Change the consent keywords and confirmation texts. An inbound message whose whole text (trimmed, case-insensitive) is an opt-out keyword opts its contact out (source keyword, event contact.consent) and is answered with opt_out_confirmation when set; an opt-in keyword opts it back in. A list replaces the stored one; a keyword may not be in both.',
    },
  },
  {
    operation: 'ContactChannelRemove',
    rest: [{ operationId: 'removeContactChannel', method: 'DELETE', path: '/contacts/channels/{id}' }],
    mcp: {
      name: 'contact_channels_remove',
      kind: 'destructive',
      description: 'Remove an identity from its contact; if it was primary, the next one of its type takes its place.',
    },
  },
];

/** Tags: assigning a tag is a PUT on the contact's tag. */
export const TAGS: readonly FacadeEntry[] = [
  {
    operation: 'TagAssign',
    rest: [{ operationId: 'assignTag', method: 'PUT', path: '/contacts/{customer_id}/tags/{tag_id}' }],
    mcp: { name: 'tags_assign', kind: 'write', description: 'Assign a tag to a contact; assigning it again changes nothing.' },
  },
  {
    operation: 'TagUnassign',
    rest: [{ operationId: 'unassignTag', method: 'DELETE', path: '/contacts/{customer_id}/tags/{tag_id}' }],
    mcp: {
      name: 'tags_unassign',
      kind: 'destructive',
      description: 'Remove a tag from a contact; removing an unassigned tag changes nothing.',
    },
  },
  {
    operation: 'Tags',
    rest: [{ operationId: 'listTags', method: 'GET', path: '/tags', guideKey: 'tags' }],
    mcp: { name: 'tags_list', kind: 'read', description: 'List every tag of the workspace, by name.' },
  },
  {
    operation: 'TagCreate',
    rest: [{ operationId: 'createTag', method: 'POST', path: '/tags', status: 201, errors: ['CONFLICT'] }],
    mcp: { name: 'tags_create', kind: 'write', description: 'Create a tag; names are unique in the workspace.' },
  },
];
