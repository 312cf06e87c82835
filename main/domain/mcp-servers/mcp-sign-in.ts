import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServerConfig } from '../../../shared/mcp-servers';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { SecretStore } from '../../platform/secrets/secret-store';
import { McpOAuthProvider } from './mcp-oauth-provider';

/** How long a started sign-in waits for the browser to come back. */
const SIGN_IN_WAIT_MS = 10 * 60_000;
const CALLBACK_PATH = '/oauth/callback';

export interface McpSignInOptions {
  readonly secrets: SecretStore;
  /** The sign-in of this server finished (tokens saved): start it again. */
  readonly onSignedIn: (id: string) => void;
  /** It failed after the browser came back (the code exchange was refused). */
  readonly onFailed: (id: string, why: string) => void;
}

export interface McpSignIn {
  /** The provider a background start uses: saved tokens, refreshed when they expire; never a browser. */
  provider(id: string): McpOAuthProvider;
  /**
   * The user pressed Sign in: discovery and registration run now, and the authorization URL comes
   * back for the page to open in the system browser once the user confirms its host. Null: the saved
   * sign-in was still good (refreshed), nothing to open.
   */
  start(config: McpServerConfig): Promise<Result<{ authorizationUrl: string | null }>>;
  dispose(): Promise<void>;
}

interface Waiting {
  readonly id: string;
  readonly serverUrl: string;
  readonly provider: McpOAuthProvider;
  readonly timer: NodeJS.Timeout;
}

const page = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  const safe = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  res.end(`<!doctype html><meta charset="utf-8"><title>Familiar</title><p>${safe}</p>`);
};

/**
 * Sign-in to Streamable HTTP servers with OAuth 2.1 + PKCE (the MCP SDK's client auth): the
 * redirect comes back to a loopback listener on 127.0.0.1 (RFC 8252), opened on the first sign-in
 * and matched to its sign-in by the `state` parameter; the code is exchanged there and the tokens
 * and client go to the secret store (mcp-oauth-provider.ts).
 */
export function createMcpSignIn(options: McpSignInOptions): McpSignIn {
  const waiting = new Map<string, Waiting>();
  let listening: Promise<{ server: Server; url: string }> | undefined;

  const finish = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== CALLBACK_PATH) return page(res, 404, 'Not found.');
    const state = url.searchParams.get('state') ?? '';
    const entry = waiting.get(state);
    if (entry === undefined)
      return page(res, 400, 'This sign-in is unknown or has expired. Start it again in Familiar.');
    waiting.delete(state);
    clearTimeout(entry.timer);
    const code = url.searchParams.get('code');
    if (code === null) {
      const why = url.searchParams.get('error_description') ?? url.searchParams.get('error') ?? 'no code';
      options.onFailed(entry.id, `sign-in refused: ${why}`);
      return page(res, 400, `Sign-in was not completed: ${why}`);
    }
    try {
      await auth(entry.provider, {
        serverUrl: entry.serverUrl,
        authorizationCode: code,
        ...entry.provider.challenge(),
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      options.onFailed(entry.id, `sign-in failed: ${why}`);
      return page(res, 400, `Sign-in failed: ${why}`);
    }
    options.onSignedIn(entry.id);
    page(res, 200, 'Signed in. You can close this tab and return to Familiar.');
  };

  const callback = () => {
    listening ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => void finish(req, res));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const port = (server.address() as AddressInfo).port;
        resolve({ server, url: `http://127.0.0.1:${port}${CALLBACK_PATH}` });
      });
    });
    return listening;
  };

  return {
    provider: (id) => new McpOAuthProvider({ id, secrets: options.secrets }),
    async start(config) {
      if (config.transport !== 'http') return err('invalid_payload', `${config.id} is not a Streamable HTTP server.`);
      const { url: redirectUrl } = await callback();
      const state = randomBytes(24).toString('base64url');
      let authorizationUrl: string | null = null;
      const provider = new McpOAuthProvider({
        id: config.id,
        secrets: options.secrets,
        interactive: { redirectUrl, state, onAuthorizationUrl: (url) => void (authorizationUrl = url.href) },
      });
      try {
        // Where the server's refusal pointed (metadata at its own path, the scopes it wants).
        const result = await auth(provider, { serverUrl: config.url, ...provider.challenge() });
        if (result === 'AUTHORIZED') return ok({ authorizationUrl: null });
      } catch (error) {
        return err('mcp_server_unavailable', `Could not start signing in to ${config.id}: ${String(error)}`, {
          server: config.id,
        });
      }
      if (authorizationUrl === null) return err('internal_error', 'The sign-in gave no authorization URL.');
      for (const [key, entry] of waiting) {
        if (entry.id !== config.id) continue;
        clearTimeout(entry.timer);
        waiting.delete(key);
      }
      const timer = setTimeout(() => waiting.delete(state), SIGN_IN_WAIT_MS);
      timer.unref();
      waiting.set(state, { id: config.id, serverUrl: config.url, provider, timer });
      return ok({ authorizationUrl });
    },
    async dispose() {
      for (const entry of waiting.values()) clearTimeout(entry.timer);
      waiting.clear();
      const open = await listening?.catch(() => undefined);
      if (open === undefined) return;
      open.server.closeAllConnections();
      await new Promise((resolve) => open.server.close(resolve));
    },
  };
}
