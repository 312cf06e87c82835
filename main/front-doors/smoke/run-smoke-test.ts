import { messageOf } from '../../../shared/errors';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import type { SearchEngineInfo } from '../../../shared/ipc/app';
import { confinementCommand, runConfinementCheck } from './confinement-check';
import { probeSource } from './page-probes';
import type { ConversationProbeResult, SecurityProbeResult } from './page-probes';
import { startSmokeLlmServer } from './smoke-llm-server';
import type { SmokeLlmServer } from './smoke-llm-server';
import { smokeScript } from './smoke-script';

/**
 * `--smoke-test`: proves a built Familiar works end to end on the machine it runs on. The core is
 * reached through the contract (`invoke`), the page through its own renderer, and the model is the
 * scripted server in this folder, so nothing here depends on Electron: the desktop adapter
 * (main/front-doors/electron/smoke-test.ts) and the browser-mode test (e2e/smoke-test-mode.spec.ts) run the
 * same checks, each handing in its own page.
 */

export interface SmokePage {
  /** Shows the renderer; called once the provider is saved, so the page starts configured. */
  load(): Promise<void>;
  /** Evaluates source text in the page, awaiting a promise it returns. */
  evaluate(source: string): Promise<unknown>;
  /** Errors the page reported so far: console errors, uncaught exceptions, a failed preload. */
  errors(): readonly string[];
}

export interface SmokeOptions {
  /** The core, as the page reaches it: the same validated contract calls. */
  readonly core: Pick<FamiliarApi, 'invoke'>;
  readonly page: SmokePage;
  /** 'preload': the desktop window must see window.familiar; 'none': browser mode must not. */
  readonly bridge: 'preload' | 'none';
  /** How long the scripted conversation may take in the page. */
  readonly conversationTimeoutMs?: number;
  /** How long the confinement check's conversation may take (its command, approved through the contract). */
  readonly confinementTimeoutMs?: number;
  /**
   * A packaged build must search with the ripgrep it ships (electron-builder.yml extraResources): the
   * `ripgrep` check fails when the core found none there. A development run or browser mode uses PATH's.
   */
  readonly requireBundledRipgrep?: boolean;
  /** Facts about the build that go into the summary (mode, version, platform, signed...). */
  readonly facts?: Readonly<Record<string, string | boolean>>;
}

export interface SmokeCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface SmokeSummary {
  readonly ok: boolean;
  readonly durationMs: number;
  readonly facts: Readonly<Record<string, string | boolean>>;
  readonly checks: readonly SmokeCheck[];
}

/** The keys the preload exposes (preload/index.ts): two functions built from the contract. */
export const expectedBridgeKeys = ['invoke', 'on'] as const;

const check = (name: string, ok: boolean, detail: string): SmokeCheck => ({ name, ok, detail });

function conversationChecks(result: ConversationProbeResult): SmokeCheck[] {
  const reached = (step: string) => result.reached.includes(step);
  const stoppedAt = result.error === undefined ? '' : ` (stopped: ${result.error})`;
  return [
    check('renderer', reached('renderer'), reached('renderer') ? 'the app rendered' : `no app${stoppedAt}`),
    check(
      'approval',
      reached('approved') && result.approvalNamedFile,
      `steps ${result.reached.join(' → ')}; the dialog ${result.approvalNamedFile ? 'named' : 'did not name'} ${smokeScript.file}${stoppedAt}`,
    ),
    check('tool', result.toolOutcome === 'ok', `write_file: ${result.toolOutcome ?? 'no result'}`),
    check('reply', reached('replied'), reached('replied') ? 'the reply was shown' : `no reply${stoppedAt}`),
  ];
}

function securityChecks(result: SecurityProbeResult, bridge: SmokeOptions['bridge']): SmokeCheck[] {
  const keys = result.bridgeKeys === null ? 'none' : result.bridgeKeys.join(',');
  const bridgeOk =
    bridge === 'preload'
      ? result.bridgeKeys?.join(',') === expectedBridgeKeys.join(',') && result.bridgeFunctionsOnly
      : result.bridgeKeys === null;
  const cspOk =
    !result.inlineScriptRan &&
    result.violatedDirective !== null &&
    (result.metaPolicy ?? '').includes("script-src 'self'");
  return [
    check(
      'bridge',
      bridgeOk,
      `window.familiar keys: ${keys} (expected ${bridge === 'preload' ? expectedBridgeKeys.join(',') : 'none'})`,
    ),
    check(
      'node-isolation',
      result.nodeGlobals.length === 0,
      result.nodeGlobals.length === 0 ? 'no Node globals' : `visible: ${result.nodeGlobals.join(', ')}`,
    ),
    check(
      'csp',
      cspOk,
      `inline script ${result.inlineScriptRan ? 'RAN' : 'blocked'} (${result.violatedDirective ?? 'no violation reported'})`,
    ),
  ];
}

function modelCheck(llm: SmokeLlmServer): SmokeCheck {
  const [first] = llm.requests;
  const answered = llm.requests.find((request) => request.toolResult !== undefined);
  const ok =
    first?.toolNames.includes('write_file') === true &&
    answered !== undefined &&
    !(answered.toolResult ?? '').includes('"ok":false');
  return check(
    'model',
    ok,
    `${llm.requests.length} request(s); tool result sent back: ${answered?.toolResult?.slice(0, 160) ?? 'none'}`,
  );
}

/** Pure: whether search_in_code's engine is the one this build must use (app.confinement's `search`). */
export function judgeSearchEngine(search: SearchEngineInfo | undefined, requireBundled: boolean): SmokeCheck {
  if (search === undefined) return check('ripgrep', false, 'app.confinement failed');
  const found =
    search.engine === 'ripgrep'
      ? `ripgrep (${search.source}): ${search.path}`
      : `the JavaScript engine (${search.reason})`;
  if (!requireBundled) return check('ripgrep', true, `search uses ${found}`);
  const bundled = search.engine === 'ripgrep' && search.source === 'bundled';
  return check(
    'ripgrep',
    bundled,
    bundled ? `search uses ${found}` : `the packaged ripgrep is missing: search uses ${found}`,
  );
}

/** Runs the smoke test; never throws: every failure is a failed check in the summary. */
export async function runSmokeTest(options: SmokeOptions): Promise<SmokeSummary> {
  const started = Date.now();
  const checks: SmokeCheck[] = [];
  let llm: SmokeLlmServer | undefined;
  try {
    // The confinement check's command names Familiar's home (outside the workspace) as its target.
    const info = await options.core.invoke('app.info', {});
    llm = await startSmokeLlmServer(info.ok ? { confinementCommand: confinementCommand(info.value.homePath) } : {});
    const saved = await options.core.invoke('providers.save', {
      provider: { kind: 'openai-compatible', model: smokeScript.model, baseUrl: llm.baseUrl },
    });
    checks.push(check('provider', saved.ok && saved.value.configured, saved.ok ? llm.baseUrl : saved.error.message));
    await options.page.load();

    const conversation = (await options.page.evaluate(
      probeSource('conversation', {
        message: smokeScript.userMessage,
        file: smokeScript.file,
        reply: smokeScript.reply,
        timeoutMs: options.conversationTimeoutMs ?? 30_000,
      }),
    )) as ConversationProbeResult;
    checks.push(...conversationChecks(conversation));
    // Taken before the CSP probe, whose blocked script is an error the page rightly reports.
    const pageErrors = [...options.page.errors()];

    const security = (await options.page.evaluate(probeSource('security'))) as SecurityProbeResult;
    checks.push(...securityChecks(security, options.bridge));
    checks.push(modelCheck(llm));
    const confinementInfo = await options.core.invoke('app.confinement', {});
    checks.push(
      judgeSearchEngine(
        confinementInfo.ok ? confinementInfo.value.search : undefined,
        options.requireBundledRipgrep ?? false,
      ),
    );

    const written = await options.core.invoke('workspace.readFile', { path: smokeScript.file });
    checks.push(
      check(
        'file',
        written.ok && written.value.text === smokeScript.content,
        written.ok ? `${smokeScript.file}: ${written.value.size} bytes` : written.error.message,
      ),
    );
    checks.push(
      check(
        'page-errors',
        pageErrors.length === 0,
        pageErrors.length === 0 ? 'none' : pageErrors.join(' | ').slice(0, 2000),
      ),
    );
    // Last: its conversation and approval go through the contract, after the page's checks.
    const confinement = await runConfinementCheck(options.core, llm, options.confinementTimeoutMs ?? 20_000);
    checks.push(check('confinement', confinement.ok, confinement.detail));
  } catch (error) {
    checks.push(check('run', false, messageOf(error)));
  } finally {
    await llm?.close();
  }
  return {
    ok: checks.length > 0 && checks.every((item) => item.ok),
    durationMs: Date.now() - started,
    facts: options.facts ?? {},
    checks,
  };
}
