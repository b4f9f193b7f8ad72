// Dead letters of provider callbacks: the parts of webhook payloads that could never be stored, with why.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { pageType } from '../shared/page.js';
import { listInboundFailures } from '../../resolvers/messaging/inboundFailures.js';
import { limitArg } from '../shared/pageLimit.js';
import { oneOf } from '../shared/jsonSchemaHints.js';

const InboundFailure = builder.prismaObject('InboundFailure', {
  description:
    'A part of a provider callback (an inbound message, a status report or a change) that could never be stored as it is; the rest of its payload was.',
  fields: (t) => ({
    id: t.exposeID('id'),
    integration_id: t.exposeID('integration_id', {
      nullable: true,
      description: 'The integration of the phone number it names; null when that number is not connected here.',
    }),
    phone_number_id: t.exposeString('phone_number_id', { nullable: true, description: 'The business phone number id it names.' }),
    kind: t.exposeString('kind', oneOf(['message', 'status', 'change'])),
    reason: t.exposeString('reason', { description: 'Why it cannot be stored, naming the field.' }),
    payload: t.expose('payload', {
      type: 'JSON',
      description: "The part as the provider sent it, with its change's metadata (NUL and unpaired surrogates removed).",
    }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
  }),
});

const InboundFailureList = pageType('InboundFailureList', InboundFailure);

builder.queryField('inboundFailures', (t) =>
  t.field({
    type: InboundFailureList,
    description: 'Parts of provider callbacks that could never be stored, newest first. `cursor` is the id of the last one seen.',
    authScopes: { permission: 'conversations' },
    args: {
      limit: limitArg(t.arg, 20),
      cursor: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx, info) =>
      listInboundFailures(
        ctx,
        { limit: args.limit, cursor: args.cursor?.toString() },
        queryFromInfo({ context: ctx, info, path: ['data'] }),
      ),
  }),
);
