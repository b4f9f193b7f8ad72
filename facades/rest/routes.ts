// The REST surface under /api/v1, as data: each route names the GraphQL field that serves it. sofa-api turns
// every entry into an HTTP handler (facades/rest/sofaRoutes.ts) and the same table generates the OpenAPI
// document (facades/rest/openapi.ts). Adding a route over an existing GraphQL field is one entry here.

export const REST_BASE_PATH = '/api/v1';

/** Where the guide form of a list response puts its items (see GUIDE_MEDIA_TYPE in README). */
export type GuideKey = 'conversations' | 'customers' | 'users' | 'templates' | 'tags';

export type RestRoute = {
  /** The OpenAPI operationId. */
  operationId: string;
  method: 'GET' | 'POST';
  /** Under REST_BASE_PATH; `{name}` segments are path parameters named as the field's arguments. */
  path: string;
  /** The GraphQL root field that answers, `Query.<field>` or `Mutation.<field>`. */
  field: `${'Query' | 'Mutation'}.${string}`;
  /** Success status; 200 unless given. */
  status?: 200 | 201;
  /** The key of the guide form `{<key>: [...], hasMore}`, for list routes the guides describe. */
  guideKey?: GuideKey;
  /** A deprecated alias: when it was deprecated and the path of the route that replaces it. */
  deprecated?: { since: Date; successor: string };
};

/** The customers routes were published already deprecated in favour of the contacts routes (RFC 9745 date). */
const CUSTOMERS_DEPRECATED_SINCE = new Date('2026-01-01T00:00:00Z');

export const REST_ROUTES: readonly RestRoute[] = [
  { operationId: 'listUsers', method: 'GET', path: '/users', field: 'Query.users', guideKey: 'users' },
  {
    operationId: 'listConversations',
    method: 'GET',
    path: '/conversations',
    field: 'Query.conversations',
    guideKey: 'conversations',
  },
  { operationId: 'listContacts', method: 'GET', path: '/contacts', field: 'Query.contacts', guideKey: 'customers' },
  {
    operationId: 'searchContacts',
    method: 'GET',
    path: '/contacts/search',
    field: 'Query.contactSearch',
    guideKey: 'customers',
  },
  { operationId: 'getContact', method: 'GET', path: '/contacts/{id}', field: 'Query.contact' },
  {
    operationId: 'listCustomers',
    method: 'GET',
    path: '/customers',
    field: 'Query.contacts',
    guideKey: 'customers',
    deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts' },
  },
  {
    operationId: 'searchCustomers',
    method: 'GET',
    path: '/customers/search',
    field: 'Query.contactSearch',
    guideKey: 'customers',
    deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts/search' },
  },
  {
    operationId: 'getCustomer',
    method: 'GET',
    path: '/customers/{id}',
    field: 'Query.contact',
    deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts/{id}' },
  },
  { operationId: 'listTags', method: 'GET', path: '/tags', field: 'Query.tags', guideKey: 'tags' },
  { operationId: 'createTag', method: 'POST', path: '/tags', field: 'Mutation.tagCreate', status: 201 },
  // The spec's /api/v1/chat/templates: "chat" stands for the provider's name (`sandbox`, `whatsapp`).
  {
    operationId: 'listProviderTemplates',
    method: 'GET',
    path: '/{provider}/templates',
    field: 'Query.templates',
    guideKey: 'templates',
  },
  { operationId: 'listTemplates', method: 'GET', path: '/templates', field: 'Query.templates', guideKey: 'templates' },
  { operationId: 'sendMessage', method: 'POST', path: '/messages', field: 'Mutation.messageSend', status: 201 },
];
