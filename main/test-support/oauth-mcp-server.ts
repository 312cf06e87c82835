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
  /** The `scope` of each /authorize request, in order ('' when none was asked for). */
  readonly scopes: string[];
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

export interface OAuthMcpServerOptions {
  /**
   * The protected resource metadata only at this path (named by the 401's `resource_metadata`),
   * not at the well-known one, and the 401 names the scope it wants: the client must read both.
   */
  readonly metadataPath?: string;
  readonly scope?: string;
  /** Step-up: this tool needs this scope; a token without it gets 403 insufficient_scope naming it. */
  readonly stepUp?: { readonly tool: string; readonly scope: string };
}

export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const metadataPath = options.metadataPath ?? '/.well-known/oauth-protected-resource/mcp';
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; scope: string }>();
  /** Each live access token and the scope it was granted. */
  const access = new Map<string, string>();
  /** Each live refresh token and the scope it keeps. */
  const refresh = new Map<string, string>();
  const grants: string[] = [];
  const bearers: string[] = [];
  const scopes: string[] = [];
  let origin = '';
  const issue = (scope: string) => {
    const tokens = { access_token: token(), token_type: 'Bearer', expires_in: 3600, refresh_token: token() };
    access.set(tokens.access_token, scope);
    refresh.set(tokens.refresh_token, scope);
    return tokens;
  };

  const mcp = async (req: IncomingMessage, res: ServerResponse) => {
    const header = req.headers.authorization ?? '';
    bearers.push(header);
    const granted = access.get(header.replace(/^Bearer /, ''));
    if (granted === undefined) {
      res.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${origin}${metadataPath}"${options.scope === undefined ? '' : `, scope="${options.scope}"`}`,
      });
      res.end();
      return;
    }
    const body: unknown = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
    const call = body as { method?: string; params?: { name?: string } } | undefined;
    const { stepUp } = options;
    if (
      stepUp !== undefined &&
      call?.method === 'tools/call' &&
      call.params?.name === stepUp.tool &&
      !granted.split(' ').includes(stepUp.scope)
    ) {
      res.writeHead(403, {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${stepUp.scope}", resource_metadata="${origin}${metadataPath}"`,
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
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === metadataPath) {
      return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    }
    switch (url.pathname) {
      case '/mcp':
        return await mcp(req, res);
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
        scopes.push(q.get('scope') ?? '');
        const code = token();
        codes.set(code, {
          clientId: q.get('client_id')!,
          redirectUri,
          challenge: q.get('code_challenge') ?? '',
          scope: q.get('scope') ?? '',
        });
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
          return json(res, 200, issue(saved.scope));
        }
        const refreshed = refresh.get(form.get('refresh_token') ?? '');
        if (grant === 'refresh_token' && refreshed !== undefined) {
          refresh.delete(form.get('refresh_token') ?? '');
          return json(res, 200, issue(refreshed));
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
    scopes,
    expireAccessTokens: () => access.clear(),
    close: listening.close,
  };
}
