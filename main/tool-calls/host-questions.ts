import { isIP } from 'node:net';
import { allowedHostEntry, hostKey } from '../domain/policy/allowed-hosts';
import { webHostAllowed, webHostEntryFor } from '../domain/policy/web-hosts';
import type { ApprovalInput } from '../domain/approvals/broker';
import { addressClass, addressClassWords, isLocalhostName } from '../platform/processes/network-address';
import type { HostGate, HostTarget, HostVerdict } from '../platform/processes/network-proxy';
import type { NetworkAccess } from '../tools/define-tool';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import type { Approver, ToolCallRequest } from './tool-executor';

/** The user's "allow this host for the rest of the conversation" answers, per conversation. */
export interface HostAllowances {
  covers(conversationId: string, key: string): boolean;
  grant(conversationId: string, key: string): void;
}

export function createHostAllowances(): HostAllowances {
  const byConversation = new Map<string, Set<string>>();
  return {
    covers: (conversationId, key) => byConversation.get(conversationId)?.has(key) === true,
    grant(conversationId, key) {
      byConversation.set(conversationId, (byConversation.get(conversationId) ?? new Set()).add(key));
    },
  };
}

export interface HostQuestionInputs {
  readonly request: ToolCallRequest;
  readonly env: ToolEnvironment;
  readonly allowances: HostAllowances;
  /** Who asks the person (approverFor in ask.ts): the same as for the call itself. */
  readonly approver: Approver | undefined;
  /** The call's: a stop withdraws the questions still open. */
  readonly signal: AbortSignal;
}

const MAX_REQUESTER_CHARS = 200;
const allowed: HostVerdict = { allowed: true, local: false };

/** web_fetch refuses such an address whatever the answer, unless the host is in Settings → Web. */
function webLocalWarning(host: string): string[] {
  const kind = isIP(host) !== 0 ? addressClass(host) : isLocalhostName(host) ? 'loopback' : 'public';
  return kind === 'public'
    ? []
    : [`${host} is ${addressClassWords[kind]}: web_fetch reaches it only when it is listed in Settings → Web.`];
}

/** A warning for a host that is an address on this computer or the local network by its very name. */
function localWarning(host: string): string[] {
  const kind = isIP(host) !== 0 ? addressClass(host) : isLocalhostName(host) ? 'loopback' : 'public';
  return kind === 'public' ? [] : [`${host} is ${addressClassWords[kind]}: the command would reach it directly.`];
}

/** What differs between a command's network questions and web_fetch's. */
interface GateKind {
  /** The conversation's answers are kept apart per kind: a command's host is not a page's. */
  readonly keyPrefix: string;
  /** An answer already given in settings, or undefined to go on. */
  readonly settled: (target: HostTarget) => HostVerdict | undefined;
  readonly question: (target: HostTarget, key: string) => Pick<ApprovalInput, 'summary' | 'facts' | 'warnings'>;
  readonly nobodyToAsk: string;
  /** Keeps an "always" answer. */
  readonly remember: (target: HostTarget) => Promise<void>;
  readonly kind: 'command' | 'web';
}

function createGate(inputs: HostQuestionInputs, kind: GateKind): HostGate {
  const { request, allowances } = inputs;
  const once = new Set<string>();
  const refused = new Map<string, string>();
  const asking = new Map<string, Promise<HostVerdict>>();

  async function ask(target: HostTarget, key: string, signal: AbortSignal): Promise<HostVerdict> {
    const refuse = (reason: string): HostVerdict => {
      refused.set(key, reason);
      return { allowed: false, reason };
    };
    if (inputs.approver === undefined) return refuse(kind.nobodyToAsk);
    const outcome = await inputs.approver(
      {
        conversationId: request.conversationId,
        toolCallId: request.toolCallId,
        tool: request.name,
        ...kind.question(target, key),
        paths: [],
        operations: kind.kind === 'web' ? ['read'] : ['run'],
        persona: false,
        canAllowForConversation: true,
        network: { host: target.host, port: target.port, ...(kind.kind === 'web' ? { kind: 'web' as const } : {}) },
      },
      AbortSignal.any([signal, inputs.signal]),
    );
    if (!outcome.approved) {
      return refuse(outcome.expired ? 'nobody answered the question in time' : `the user refused: ${outcome.reason}`);
    }
    if (outcome.allowForWorkspace === true) {
      // Kept in settings; if that fails the answer still holds for the conversation.
      await kind.remember(target).catch(() => undefined);
    }
    if (outcome.allowForConversation || outcome.allowForWorkspace === true) {
      allowances.grant(request.conversationId, `${kind.keyPrefix}${key}`);
    }
    once.add(key);
    // "Always" for a page's host lists it in settings, which is what lets it be a local address:
    // the same from this answer on, not only from the next fetch.
    return outcome.allowForWorkspace === true && kind.kind === 'web' ? { allowed: true, local: true } : allowed;
  }

  return (target, signal) => {
    const key = hostKey(target.host, target.port);
    const settled = kind.settled(target);
    if (settled !== undefined) return Promise.resolve(settled);
    if (once.has(key) || allowances.covers(request.conversationId, `${kind.keyPrefix}${key}`)) {
      return Promise.resolve(allowed);
    }
    const reason = refused.get(key);
    if (reason !== undefined) return Promise.resolve({ allowed: false, reason });
    let pending = asking.get(key);
    if (pending === undefined) {
      pending = ask(target, key, signal).finally(() => asking.delete(key));
      asking.set(key, pending);
    }
    return pending;
  };
}

/**
 * Network questions (issue 28): a confined command that reaches for a host is answered from the
 * settings (always allowed in this workspace), the conversation's answers, this command's own
 * answers, or else by asking the person through the call's approver: the broker's dialog, or MCP
 * elicitation. One question per host and port however many requests wait on it; a refusal holds
 * for the rest of the command, so a retrying client does not ask again. web_fetch (issue 30) asks
 * the same way per host it reaches, its "always" kept in settings web.allowedHosts.
 */
export function networkAccessFor(inputs: HostQuestionInputs): NetworkAccess {
  const { env } = inputs;
  return {
    gate(requester) {
      const shown = requester.length > MAX_REQUESTER_CHARS ? `${requester.slice(0, MAX_REQUESTER_CHARS)}…` : requester;
      return createGate(inputs, {
        kind: 'command',
        keyPrefix: '',
        settled: (target) => {
          const entry = allowedHostEntry(env.allowedHosts(), target, env.workspaceRoot);
          return entry === undefined ? undefined : { allowed: true, local: entry.local };
        },
        question: (target, key) => ({
          summary: `\`${shown}\` wants to reach ${key}`,
          facts: { host: target.host, port: target.port, command: shown },
          warnings: localWarning(target.host),
        }),
        nobodyToAsk:
          'no person can be asked in this session, and the host is not among the allowed hosts in Settings → Commands',
        remember: (target) =>
          env.rememberHost({ host: target.host, port: target.port, workspace: env.workspaceRoot, local: false }),
      });
    },
    webGate(url) {
      const shown = url.length > MAX_REQUESTER_CHARS ? `${url.slice(0, MAX_REQUESTER_CHARS)}…` : url;
      return createGate(inputs, {
        kind: 'web',
        keyPrefix: 'web:',
        // A host the user listed may also be on this computer or the local network: they named it exactly.
        settled: (target) =>
          webHostAllowed(env.web.allowedHosts(), target) ? { allowed: true, local: true } : undefined,
        question: (target, key) => ({
          summary: `web_fetch wants to read ${shown} from ${key}`,
          facts: { host: target.host, port: target.port, url: shown },
          warnings: [
            ...webLocalWarning(target.host),
            'What the page says is untrusted: it may carry instructions that did not come from you.',
          ],
        }),
        nobodyToAsk:
          'no person can be asked in this session, and the host is not among the allowed hosts in Settings → Web',
        remember: (target) => env.web.rememberHost(webHostEntryFor(target)),
      });
    },
  };
}
