import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { listenOnLoopback } from './loopback-server';

/**
 * For tests (not shipped): an OAuth 2.1 authorization server and the MCP server it protects, both
 * on one 127.0.0.1 origin, written by hand after the MCP authorization spec: protected-resource and
 * authorization-server metadata, dynamic client registration, an /authorize that consents at once
 * (the "browser" is the test following redirects), PKCE S256 checked at /token, refresh tokens, and
 * a Streamable HTTP /mcp that answers 401 with `resource_metadata` without a live access token.
 */
export interface OAuthMcpServer {
  readonly url: string;
  /** Each /token grant, in order: `authorization_code` or `refresh_token`. */
  readonly grants: string[];
  /** The Authorization headers /mcp received. */
  readonly bearers: string[];
  /** Every access token issued so far stops working (as if expired); refresh tokens still work. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const token = () => randomBytes(16).toString('hex');

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string }>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const grants: string[] = [];
  const bearers: string[] = [];
  let origin = '';
  const issue = () => {
    const tokens = { access_token: token(), token_type: 'Bearer', expires_in: 3600, refresh_token: token() };
    access.add(tokens.access_token);
    refresh.add(tokens.refresh_token);
    return tokens;
  };

  const mcp = (req: IncomingMessage, res: ServerResponse) => {
    const header = req.headers.authorization ?? '';
    bearers.push(header);
    if (!access.has(header.replace(/^Bearer /, ''))) {
      res.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      });
      res.end();
      return;
    }
    const server = new McpServer({ name: 'oauth-test', version: '1' });
    server.registerTool('whoami', { description: 'Says who is signed in', inputSchema: { n: z.number() } }, () => ({
      content: [{ type: 'text', text: 'signed in' }],
    }));
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => void transport.close());
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    switch (url.pathname) {
      case '/mcp':
        return mcp(req, res);
      case '/.well-known/oauth-protected-resource/mcp':
        return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      case '/.well-known/oauth-authorization-server':
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      case '/register': {
        const metadata = JSON.parse(await readBody(req)) as { redirect_uris: string[] };
        const clientId = token();
        clients.set(clientId, metadata.redirect_uris);
        return json(res, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
      }
      case '/authorize': {
        const q = url.searchParams;
        const redirectUri = q.get('redirect_uri') ?? '';
        if (!(clients.get(q.get('client_id') ?? '') ?? []).includes(redirectUri)) {
          return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
        }
        if (q.get('code_challenge_method') !== 'S256' || q.get('response_type') !== 'code') {
          return json(res, 400, { error: 'invalid_request' });
        }
        const code = token();
        codes.set(code, { clientId: q.get('client_id')!, redirectUri, challenge: q.get('code_challenge') ?? '' });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      case '/token': {
        const form = new URLSearchParams(await readBody(req));
        const grant = form.get('grant_type') ?? '';
        grants.push(grant);
        if (grant === 'authorization_code') {
          const saved = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (
            saved === undefined ||
            saved.clientId !== form.get('client_id') ||
            saved.redirectUri !== form.get('redirect_uri') ||
            saved.challenge !== challenge
          ) {
            return json(res, 400, { error: 'invalid_grant' });
          }
          return json(res, 200, issue());
        }
        if (grant === 'refresh_token' && refresh.delete(form.get('refresh_token') ?? '')) {
          return json(res, 200, issue());
        }
        return json(res, 400, { error: 'invalid_grant' });
      }
      default:
        return json(res, 404, { error: 'not found' });
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  const listening = await listenOnLoopback(server);
  origin = listening.origin;
  return {
    url: `${origin}/mcp`,
    grants,
    bearers,
    expireAccessTokens: () => access.clear(),
    close: listening.close,
  };
}
