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
let buffered = '';
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let at;
  while ((at = buffered.indexOf('\\n')) !== -1) {
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    if (line.trim() !== '') answer(JSON.parse(line));
  }
});
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
    const reply = (text) => send({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text }] } });
    // As curl does: an absolute URL to HTTP_PROXY when it is set (Node's own fetch follows the
    // variables only from 22.21/24.5, and CI runs 22.13 too).
    const target = new URL(request.params.arguments.url);
    const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : undefined;
    // Its own Agent: newer Nodes' global agent would send the proxy request through the proxy again.
    import('node:http').then(({ request: get, Agent }) => {
      const outgoing = get({ agent: new Agent(), host: (proxy ?? target).hostname, port: (proxy ?? target).port,
        path: proxy ? target.href : target.pathname, headers: { host: target.host } }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (text) => (body += text)).on('end', () => reply(response.statusCode + ' ' + body));
      });
      outgoing.on('error', (error) => reply('failed: ' + String(error.code ?? error.message))).end();
    });
    return;
  }
  if (request.method === 'tools/call') {
    return send({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'n=' + request.params.arguments.n }] } });
  }
  send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'no such method' } });
}
`;
