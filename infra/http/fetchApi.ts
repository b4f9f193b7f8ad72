// The Request and Response classes of the server's own fetch implementation (@whatwg-node, which Yoga
// serves with). Responses built from them are written to the socket directly; Node's global (undici) classes
// cost a web stream per body and an AbortSignal per request on the hot path of every REST call.
export { Request, Response } from '@whatwg-node/fetch';
