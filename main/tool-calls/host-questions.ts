import { isIP } from 'node:net';
import { allowedHostEntry, hostKey } from '../domain/policy/allowed-hosts';
import { addressClass, addressClassWords, isLocalhostName } from '../platform/processes/network-address';
import type { HostGate, HostTarget, HostVerdict } from '../platform/processes/network-proxy';
import type { NetworkAccess } from '../tools/define-tool';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import type { Approver, ToolCallRequest } from './tool-executor';

/** The user's "allow this host for the rest of the conversation" answers, per conversation. */
export interface HostAllowances {
  covers(conversationId: string, key: string): boolean;
  grant(conversationId: string, key: string): void;
  /** Some host is allowed for the rest of this conversation. */
  any(conversationId: string): boolean;
}

export function createHostAllowances(): HostAllowances {
  const byConversation = new Map<string, Set<string>>();
  return {
    covers: (conversationId, key) => byConversation.get(conversationId)?.has(key) === true,
    any: (conversationId) => (byConversation.get(conversationId)?.size ?? 0) > 0,
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

/** A warning for a host that is an address on this computer or the local network by its very name. */
function localWarning(host: string): string[] {
  const kind = isIP(host) !== 0 ? addressClass(host) : isLocalhostName(host) ? 'loopback' : 'public';
  return kind === 'public' ? [] : [`${host} is ${addressClassWords[kind]}: the command would reach it directly.`];
}

/**
 * Network questions (issue 28): a confined command that reaches for a host is answered from the
 * settings (always allowed in this workspace), the conversation's answers, this command's own
 * answers, or else by asking the person through the call's approver: the broker's dialog, or MCP
 * elicitation. One question per host and port however many requests wait on it; a refusal holds
 * for the rest of the command, so a retrying client does not ask again.
 */
export function networkAccessFor(inputs: HostQuestionInputs): NetworkAccess {
  const { request, env, allowances } = inputs;
  return {
    gate(requester) {
      const once = new Set<string>();
      const refused = new Map<string, string>();
      const asking = new Map<string, Promise<HostVerdict>>();
      const shown = requester.length > MAX_REQUESTER_CHARS ? `${requester.slice(0, MAX_REQUESTER_CHARS)}…` : requester;

      async function ask(target: HostTarget, key: string, signal: AbortSignal): Promise<HostVerdict> {
        const refuse = (reason: string): HostVerdict => {
          refused.set(key, reason);
          return { allowed: false, reason };
        };
        if (inputs.approver === undefined) {
          return refuse(
            'no person can be asked in this session, and the host is not among the allowed hosts in Settings → Commands',
          );
        }
        const outcome = await inputs.approver(
          {
            conversationId: request.conversationId,
            toolCallId: request.toolCallId,
            tool: request.name,
            summary: `\`${shown}\` wants to reach ${key}`,
            paths: [],
            operations: ['run'],
            facts: { host: target.host, port: target.port, command: shown },
            persona: false,
            canAllowForConversation: true,
            network: { host: target.host, port: target.port },
            warnings: localWarning(target.host),
          },
          AbortSignal.any([signal, inputs.signal]),
        );
        if (!outcome.approved) {
          return refuse(
            outcome.expired ? 'nobody answered the question in time' : `the user refused: ${outcome.reason}`,
          );
        }
        if (outcome.allowForWorkspace === true) {
          // Kept in settings; if that fails the answer still holds for the conversation.
          await env
            .rememberHost({ host: target.host, port: target.port, workspace: env.workspaceRoot, local: false })
            .catch(() => undefined);
        }
        if (outcome.allowForConversation || outcome.allowForWorkspace === true) {
          allowances.grant(request.conversationId, key);
        }
        once.add(key);
        return allowed;
      }

      const gate: HostGate = (target, signal) => {
        const key = hostKey(target.host, target.port);
        const entry = allowedHostEntry(env.allowedHosts(), target, env.workspaceRoot);
        if (entry !== undefined) return Promise.resolve({ allowed: true, local: entry.local });
        if (once.has(key) || allowances.covers(request.conversationId, key)) return Promise.resolve(allowed);
        const reason = refused.get(key);
        if (reason !== undefined) return Promise.resolve({ allowed: false, reason });
        let pending = asking.get(key);
        if (pending === undefined) {
          pending = ask(target, key, signal).finally(() => asking.delete(key));
          asking.set(key, pending);
        }
        return pending;
      };
      return gate;
    },
  };
}
