/**
 * What `--smoke-test` does inside the page. Each probe is one self-contained function: it is sent to
 * the page as source text (webContents.executeJavaScript in the desktop app, page.evaluate in the
 * browser-mode test), so it may use nothing from outside its own body: no imports, no helpers.
 *
 * main/ is compiled without the DOM library (page types stay out of Node code), so the probes
 * describe the little of the DOM they touch themselves.
 */

interface ProbeElement {
  readonly textContent: string | null;
  readonly disabled?: boolean;
  click(): void;
  remove(): void;
  dispatchEvent(event: unknown): boolean;
  getAttribute(name: string): string | null;
  appendChild(child: ProbeElement): unknown;
  querySelector(selector: string): ProbeElement | null;
}

interface ProbeDocument {
  readonly head: ProbeElement;
  querySelector(selector: string): ProbeElement | null;
  querySelectorAll(selector: string): ArrayLike<ProbeElement>;
  createElement(tag: string): ProbeElement & { textContent: string | null };
  addEventListener(type: string, listener: (event: { violatedDirective: string }) => void): void;
  removeEventListener(type: string, listener: (event: { violatedDirective: string }) => void): void;
}

interface ProbePage {
  readonly document: ProbeDocument;
  readonly HTMLTextAreaElement: { readonly prototype: object };
  readonly Event: new (type: string, init: { bubbles: boolean }) => unknown;
  readonly familiar?: unknown;
  [name: string]: unknown;
}

export interface ConversationProbeOptions {
  readonly message: string;
  readonly file: string;
  readonly reply: string;
  readonly timeoutMs: number;
}

export interface ConversationProbeResult {
  /** The steps reached, in order: renderer, sent, approval-shown, diff-editor, approved, tool-result, replied. */
  readonly reached: string[];
  readonly error?: string;
  /** The approval dialog named the file the model wants to write. */
  readonly approvalNamedFile: boolean;
  /** What the tool card says once the tool ran: 'ok', or the error code. */
  readonly toolOutcome: string | null;
}

/**
 * Drives the real UI as a person would: types the message, sends it, waits for the approval dialog
 * (with its Monaco diff, lazy-loaded under the page's CSP), approves, and waits for the tool card
 * and the model's reply. The selectors are the renderer's own class names; the browser-mode test
 * (e2e/smoke-test-mode.spec.ts) runs this same probe, so a renamed class fails there first.
 */
export async function conversationProbe(options: ConversationProbeOptions): Promise<ConversationProbeResult> {
  const page = globalThis as unknown as ProbePage;
  const reached: string[] = [];
  let approvalNamedFile = false;
  let toolOutcome: string | null = null;
  const started = Date.now();
  const find = (selector: string) => page.document.querySelector(selector);
  async function waitFor<T>(what: string, look: () => T | null | undefined | false): Promise<T> {
    for (;;) {
      const found = look();
      if (found !== null && found !== undefined && found !== false) return found;
      if (Date.now() - started > options.timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    const box = await waitFor('the message box', () => find('#chat-composer'));
    reached.push('renderer');
    // React owns the textarea's value: set it through the native setter (the prototype's, with the
    // box as receiver), then tell React.
    Reflect.set(page.HTMLTextAreaElement.prototype, 'value', options.message, box);
    box.dispatchEvent(new page.Event('input', { bubbles: true }));
    const send = await waitFor('an enabled Send button', () => {
      const button = find('.composer-row .button-primary');
      return button !== null && button.disabled !== true ? button : null;
    });
    send.click();
    reached.push('sent');

    const dialog = await waitFor('the approval dialog', () => find('dialog.approval-dialog[open]'));
    reached.push('approval-shown');
    approvalNamedFile = (find('#approval-summary')?.textContent ?? '').includes(options.file);
    await waitFor('the diff editor', () => dialog.querySelector('.monaco-diff-editor'));
    reached.push('diff-editor');
    const approve = await waitFor('an enabled Approve button', () => {
      const button = dialog.querySelector('.dialog-actions .button-primary');
      return button !== null && button.disabled !== true ? button : null;
    });
    approve.click();
    await waitFor('the approval dialog to close', () => find('dialog.approval-dialog[open]') === null);
    reached.push('approved');

    const outcome = await waitFor('the tool result', () =>
      find('details.tool-card .tool-outcome.outcome-ok, details.tool-card .tool-outcome.outcome-error'),
    );
    toolOutcome = outcome.textContent;
    reached.push('tool-result');
    await waitFor('the reply', () =>
      Array.from(page.document.querySelectorAll('.assistant-message')).some((message) =>
        (message.textContent ?? '').includes(options.reply),
      ),
    );
    reached.push('replied');
    return { reached, approvalNamedFile, toolOutcome };
  } catch (error) {
    return { reached, error: error instanceof Error ? error.message : String(error), approvalNamedFile, toolOutcome };
  }
}

export interface SecurityProbeResult {
  /** Own keys of window.familiar, sorted; null when the page has none (browser mode). */
  readonly bridgeKeys: string[] | null;
  /** Every key of window.familiar is a function (the preload exposes functions only). */
  readonly bridgeFunctionsOnly: boolean;
  /** Node's globals the page can see: must be none. */
  readonly nodeGlobals: string[];
  /** An inline <script> the probe added ran: the CSP failed. */
  readonly inlineScriptRan: boolean;
  /** The directive the browser reported blocking that script with (script-src / script-src-elem). */
  readonly violatedDirective: string | null;
  /** The policy the page's own meta tag declares. */
  readonly metaPolicy: string | null;
}

/** What the page can reach (the preload bridge, no Node) and what its Content-Security-Policy blocks. */
export async function securityProbe(): Promise<SecurityProbeResult> {
  const page = globalThis as unknown as ProbePage;
  const bridge = page.familiar;
  const bridgeObject = typeof bridge === 'object' && bridge !== null ? (bridge as Record<string, unknown>) : null;
  const bridgeKeys = bridgeObject === null ? null : Object.keys(bridgeObject).sort();
  const bridgeFunctionsOnly =
    bridgeObject !== null && Object.values(bridgeObject).every((value) => typeof value === 'function');
  const nodeGlobals = ['require', 'process', 'module', 'Buffer', 'global'].filter(
    (name) => typeof page[name] !== 'undefined',
  );

  const marker = `familiarSmokeInline${Date.now()}`;
  let violatedDirective: string | null = null;
  const seen = new Promise<void>((resolve) => {
    const listener = (event: { violatedDirective: string }) => {
      if (!event.violatedDirective.startsWith('script-src')) return;
      violatedDirective = event.violatedDirective;
      page.document.removeEventListener('securitypolicyviolation', listener);
      resolve();
    };
    page.document.addEventListener('securitypolicyviolation', listener);
    setTimeout(resolve, 2000);
  });
  const script = page.document.createElement('script');
  script.textContent = `window.${marker} = true;`;
  page.document.head.appendChild(script);
  await seen;
  script.remove();
  const inlineScriptRan = page[marker] === true;
  const metaPolicy =
    page.document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null;
  return { bridgeKeys, bridgeFunctionsOnly, nodeGlobals, inlineScriptRan, violatedDirective, metaPolicy };
}

/**
 * A probe call as source text. The leading comment names the probe, for logs and for the faked
 * page in main/front-doors/electron/smoke-test.test.ts.
 */
export function probeSource(name: 'conversation', options: ConversationProbeOptions): string;
export function probeSource(name: 'security'): string;
export function probeSource(name: 'conversation' | 'security', options?: ConversationProbeOptions): string {
  const probe = name === 'conversation' ? conversationProbe : securityProbe;
  return `/* familiar-smoke:${name} */ (${probe.toString()})(${options === undefined ? '' : JSON.stringify(options)})`;
}
