// A JSON-RPC error as an HTTP response, the form MCP transports answer protocol failures in (unknown
// session, malformed message), as the SDK's own transports do.
export function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
