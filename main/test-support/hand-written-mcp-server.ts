import { fetchThroughProxySource, lineRpcServer } from '../../e2e/fixtures/mcp-script-parts';

/**
 * The source of a tiny MCP server written by hand (plain Node, newline-delimited JSON-RPC), for the
 * faults the reference servers never commit: `crash` (says why on stderr, exits), `hang` (never
 * answers), `faulty` (a line of garbage, one tool with an invalid schema, one answering 20 MB, one fetching a URL through HTTP_PROXY).
 */
export const handWrittenServer = `
const mode = process.argv[2];
if (mode === 'crash') {
  process.stderr.write('starting\\nfatal: cannot open the database\\n');
  process.exit(3);
}
${lineRpcServer}
${fetchThroughProxySource}
function answer(request) {
  if (mode === 'hang' || request.id === undefined) return;
  if (request.method === 'initialize') {
    process.stdout.write('this line is not JSON-RPC\\n');
    return send({ jsonrpc: '2.0', id: request.id, result: {
      protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'faulty', version: '1' } } });
  }
  if (request.method === 'tools/list') {
    return send({ jsonrpc: '2.0', id: request.id, result: { tools: [
      { name: 'ok', description: 'fine', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
      { name: 'broken', description: 'bad schema', inputSchema: { type: 'string' } },
      { name: 'huge', description: 'answers 20 MB', inputSchema: { type: 'object' } },
      { name: 'fetch', description: 'GET a URL (through the proxy variables)', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } },
    ] } });
  }
  if (request.method === 'tools/call' && request.params.name === 'huge') {
    return send({ result: { content: [{ type: 'text', text: 'x'.repeat(20 * 1024 * 1024) }] }, jsonrpc: '2.0', id: request.id });
  }
  if (request.method === 'tools/call' && request.params.name === 'fetch') {
    return fetchThroughProxy(request.params.arguments.url, (text) =>
      send({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text }] } }));
  }
  if (request.method === 'tools/call') {
    return send({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'n=' + request.params.arguments.n }] } });
  }
  send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'no such method' } });
}
`;
