import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import type { SecretStore } from '../../platform/secrets/secret-store';
import { oauthSecret } from './mcp-secrets';

/** What one server's sign-in keeps in the secret store: tokens, the client it registered, the PKCE verifier. */
const oauthStateSchema = z.object({
  tokens: z.looseObject({ access_token: z.string() }).optional(),
  client: z.looseObject({ client_id: z.string() }).optional(),
  verifier: z.string().optional(),
  discovery: z.unknown().optional(),
  /** What the server's last 401/403 asked for: where its metadata is, which scopes (the next sign-in's). */
  challenge: z
    .object({
      resourceMetadataUrl: z.string().optional(),
      scope: z.string().optional(),
      /** A 403 insufficient_scope (step-up): the saved tokens cannot do it, refreshed or not. */
      moreAccess: z.boolean().optional(),
    })
    .optional(),
});
type OAuthState = z.infer<typeof oauthStateSchema>;

/**
 * Thrown where the SDK's auth would start an interactive sign-in while a server is being started in
 * the background: nothing is registered and no browser opens; the status says 'needs sign-in'.
 */
export class SignInNeeded extends Error {
  constructor() {
    super('needs sign-in');
  }
}

export interface OAuthProviderOptions {
  readonly id: string;
  readonly secrets: SecretStore;
  /**
   * Interactive (the user pressed Sign in): the loopback callback URL, and where the authorization
   * URL goes. Absent: a background start that may use and refresh saved tokens, nothing more.
   */
  readonly interactive?: {
    readonly redirectUrl: string;
    readonly state: string;
    readonly onAuthorizationUrl: (url: URL) => void;
  };
}

/**
 * The MCP SDK's OAuthClientProvider (OAuth 2.1 with PKCE, dynamic client registration, refresh) over
 * Familiar's secret store: one entry per server, `mcp:<id>:oauth`, never in settings.json.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  constructor(private readonly options: OAuthProviderOptions) {}

  private read(): OAuthState {
    const text = this.options.secrets.get(oauthSecret(this.options.id));
    if (text === undefined) return {};
    try {
      const parsed = oauthStateSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  private async write(change: (state: OAuthState) => OAuthState): Promise<void> {
    const next = change(this.read());
    const empty = Object.values(next).every((value) => value === undefined);
    await this.options.secrets.set(oauthSecret(this.options.id), empty ? null : JSON.stringify(next));
  }

  get redirectUrl(): string | undefined {
    // A background start has no callback: the SDK may refresh, and asks for a redirect only to sign in.
    return this.options.interactive?.redirectUrl ?? 'http://127.0.0.1/oauth/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Familiar',
      redirect_uris: [this.redirectUrl ?? ''],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.options.interactive?.state ?? '';
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const client = this.read().client as OAuthClientInformationMixed | undefined;
    const interactive = this.options.interactive;
    if (interactive === undefined) {
      if (client === undefined) throw new SignInNeeded();
      return client;
    }
    // Registered for another loopback port (an earlier sign-in): register again for this one.
    const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (Array.isArray(uris) && !uris.includes(interactive.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.write((state) => ({ ...state, client }));
  }

  tokens(): OAuthTokens | undefined {
    const state = this.read();
    // Signing in for more access: a refresh keeps the old scopes, so the user authorizes anew.
    if (this.options.interactive !== undefined && state.challenge?.moreAccess === true) return undefined;
    return state.tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.write((state) => ({
      ...state,
      tokens,
      ...(state.challenge === undefined ? {} : { challenge: { ...state.challenge, moreAccess: undefined } }),
    }));
  }

  redirectToAuthorization(url: URL): void {
    if (this.options.interactive === undefined) throw new SignInNeeded();
    this.options.interactive.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.write((state) => ({ ...state, verifier }));
  }

  codeVerifier(): string {
    const verifier = this.read().verifier;
    if (verifier === undefined) throw new Error('no PKCE code verifier saved for this sign-in');
    return verifier;
  }

  /**
   * The server refused a request (401, or 403 insufficient_scope): its WWW-Authenticate says where
   * its protected resource metadata is and which scopes it wants. Kept for the sign-in, which the
   * user starts later: a background start cannot sign in itself.
   */
  async rememberChallenge(response: Response): Promise<void> {
    const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
    if (resourceMetadataUrl === undefined && scope === undefined) return;
    const challenge = {
      ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: resourceMetadataUrl.href }),
      ...(scope === undefined ? {} : { scope }),
      ...(response.status === 403 && error === 'insufficient_scope' ? { moreAccess: true } : {}),
    };
    // Each start of a server waiting for sign-in meets the same refusal: write only what is new.
    if (JSON.stringify(this.read().challenge) === JSON.stringify(challenge)) return;
    await this.write((state) => ({ ...state, challenge }));
  }

  /** What the server's last refusal asked for, as the SDK's auth() takes it. */
  challenge(): { resourceMetadataUrl?: URL; scope?: string } {
    const { resourceMetadataUrl, scope } = this.read().challenge ?? {};
    let url: URL | undefined;
    try {
      url = resourceMetadataUrl === undefined ? undefined : new URL(resourceMetadataUrl);
    } catch {
      url = undefined;
    }
    return { ...(url === undefined ? {} : { resourceMetadataUrl: url }), ...(scope === undefined ? {} : { scope }) };
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.write((state) => ({
      ...(scope === 'all' || scope === 'client' ? {} : { client: state.client }),
      ...(scope === 'all' || scope === 'tokens' ? {} : { tokens: state.tokens }),
      ...(scope === 'all' || scope === 'verifier' ? {} : { verifier: state.verifier }),
      ...(scope === 'all' || scope === 'discovery' ? {} : { challenge: state.challenge }),
    }));
  }
}
