// The messaging provider's callbacks: the subscription handshake and signed deliveries. No API key: the provider
// proves itself with the integration's verify token and app secret, which the resolvers check, so both fields
// are marked `public`. Served by /webhooks/whatsapp (facades/public/whatsapp/callback.ts).
import { builder } from '../builder.js';
import { providerCallbackChallenge, receiveProviderCallback } from '../../resolvers/messaging/providerCallback.js';

const PROVIDER_ARG = { required: true, description: 'The provider whose callback this is: whatsapp.' } as const;

const ProviderCallbackResult = builder.objectRef<{ status: 'ok' }>('ProviderCallbackResult').implement({
  description: 'The acknowledgement a provider waits for.',
  fields: (t) => ({ status: t.exposeString('status', { description: 'ok' }) }),
});

builder.queryField('providerCallbackChallenge', (t) =>
  t.string({
    description:
      'Public, no API key: the challenge of the provider’s subscription handshake, when the mode is subscribe and the verify ' +
      'token is a connected integration’s; FORBIDDEN otherwise.',
    authScopes: { public: true },
    args: {
      provider: t.arg.string(PROVIDER_ARG),
      mode: t.arg.string({ description: 'hub.mode' }),
      verify_token: t.arg.string({ description: 'hub.verify_token' }),
      challenge: t.arg.string({ description: 'hub.challenge' }),
    },
    resolve: (_root, args, ctx) => providerCallbackChallenge(ctx, args),
  }),
);

builder.mutationField('providerCallbackReceive', (t) =>
  t.field({
    type: ProviderCallbackResult,
    description:
      'Public, no API key: acts on a delivery of the provider (inbound messages, status reports) signed with the app secret ' +
      'of each integration it names (UNAUTHORIZED otherwise); a body that is not the documented shape is VALIDATION_ERROR ' +
      'and nothing of it is written.',
    authScopes: { public: true },
    args: {
      provider: t.arg.string(PROVIDER_ARG),
      body: t.arg.string({ required: true, description: 'The raw request body, as signed.' }),
      signature: t.arg.string({ description: 'The X-Hub-Signature-256 header: sha256=<hex HMAC-SHA256 of the body>.' }),
    },
    resolve: (_root, args, ctx) => receiveProviderCallback(ctx, args),
  }),
);
