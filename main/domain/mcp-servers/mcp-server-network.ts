import { isIP } from 'node:net';
import { hostKey } from '../policy/allowed-hosts';
import type { ApprovalInput, ApprovalOutcome } from '../approvals/broker';
import { addressClass, addressClassWords, isLocalhostName } from '../../platform/processes/network-address';
import type { HostGate, HostTarget, HostVerdict } from '../../platform/processes/network-proxy';
import type { CallContext } from './mcp-connection';

/** The user's answer to a server's host: let it through (and keep it), or not (and whether a person said so). */
export type HostAnswer =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      readonly reason: string;
      /** A person refused (or let the question expire): not asked again while this process runs. */
      readonly answered: boolean;
    };

/** What a server's network gate is given by whoever starts it. */
export interface ServerNetwork {
  /** The hosts granted now (`host` or `host:port`): read per request, so an "always" needs no restart. */
  readonly hosts: () => readonly string[];
  /** Told each host refused, so Settings can show it beside the server for the user to allow. */
  readonly onRefused: (host: string) => void;
  /** Puts a host not granted to a person; absent: refused without asking, as before. */
  readonly ask?: (target: HostTarget, signal: AbortSignal) => Promise<HostAnswer>;
}

/** A host the user granted this server: `host` (any port) or `host:port`. */
const granted = (hosts: readonly string[], host: string, port: number): boolean => {
  const shown = host.includes(':') ? `[${host}]` : host;
  return hosts.includes(shown) || hosts.includes(`${shown}:${port}`);
};

const NOT_GRANTED = 'this MCP server may reach only the hosts allowed for it in Settings → MCP servers';

/**
 * The gate of a server's network (network-proxy.ts): the hosts in its grants, else a person's
 * answer. Requests to one host wait on one question; a host a person refused is refused without
 * asking for the rest of this process (a retrying server raises no storm of questions); every
 * refusal is reported. "Once" lets through the requests that waited on that question.
 */
export function serverGate(network: ServerNetwork): HostGate {
  const refusedByPerson = new Map<string, string>();
  const asking = new Map<string, Promise<HostVerdict>>();
  const refuse = (key: string, reason: string): HostVerdict => {
    network.onRefused(key);
    return { allowed: false, reason };
  };

  async function ask(target: HostTarget, key: string, signal: AbortSignal): Promise<HostVerdict> {
    const answer = await network.ask!(target, signal).catch((error: unknown): HostAnswer => ({
      allowed: false,
      reason: `the question failed: ${String(error)}`,
      answered: false,
    }));
    if (answer.allowed) return { allowed: true, local: false };
    if (answer.answered) refusedByPerson.set(key, answer.reason);
    return refuse(key, `${answer.reason}; ${NOT_GRANTED}`);
  }

  return (target, signal) => {
    if (granted(network.hosts(), target.host, target.port)) return Promise.resolve({ allowed: true, local: false });
    const key = hostKey(target.host, target.port);
    const refused = refusedByPerson.get(key);
    if (refused !== undefined) return Promise.resolve(refuse(key, `${refused}; ${NOT_GRANTED}`));
    if (network.ask === undefined) return Promise.resolve(refuse(key, NOT_GRANTED));
    let pending = asking.get(key);
    if (pending === undefined) {
      pending = ask(target, key, signal).finally(() => asking.delete(key));
      asking.set(key, pending);
    }
    return pending;
  };
}

/** A warning for a host that is an address on this computer or the local network by its very name. */
function localWarning(host: string): string[] {
  const kind = isIP(host) !== 0 ? addressClass(host) : isLocalhostName(host) ? 'loopback' : 'public';
  return kind === 'public' ? [] : [`${host} is ${addressClassWords[kind]}: the server would reach it directly.`];
}

/** A server's host as a question for the approval dialog, in the conversation whose call it was answering. */
export function hostQuestion(server: string, call: CallContext, target: HostTarget): ApprovalInput {
  const key = hostKey(target.host, target.port);
  return {
    conversationId: call.conversationId,
    toolCallId: call.toolCallId,
    tool: call.name,
    summary: `The MCP server "${server}" wants to reach ${key}`,
    // The card names the server and the host already (network); facts would say them twice.
    facts: {},
    paths: [],
    operations: [],
    persona: false,
    canAllowForConversation: false,
    network: { host: target.host, port: target.port, kind: 'mcp-server', server },
    warnings: localWarning(target.host),
  };
}

export interface ServerHostQuestions {
  /** Puts the question to the user (the broker's request, or MCP mode's elicitation). */
  readonly ask: (input: ApprovalInput, signal: AbortSignal) => Promise<ApprovalOutcome>;
  /** Adds `host:port` to the server's grants in settings; false when it cannot (a server not in settings). */
  readonly keep: (server: string, host: string) => Promise<boolean>;
  readonly log?: (message: string) => void;
}

/**
 * Asks the user about a server's host (issue 29): only while a call of that server runs, in that
 * call's conversation; outside one nobody is there to answer and the host is refused (and shown in
 * Settings, as before). "Always" adds the host to the server's grants in settings.
 */
export function askServerHost(questions: ServerHostQuestions) {
  return async (
    asker: { readonly server: string; readonly call?: CallContext | undefined },
    target: HostTarget,
    signal: AbortSignal,
  ): Promise<HostAnswer> => {
    if (asker.call === undefined) {
      return { allowed: false, reason: 'it asked outside a tool call, when nobody can be asked', answered: false };
    }
    const outcome = await questions.ask(hostQuestion(asker.server, asker.call, target), signal);
    if (!outcome.approved) {
      return {
        allowed: false,
        reason: outcome.expired ? 'nobody answered the question in time' : `the user refused: ${outcome.reason}`,
        // Withdrawn (its call ended, the turn stopped, the server stopped) is no answer: ask again next time.
        answered: outcome.cancelled !== true && !signal.aborted,
      };
    }
    if (outcome.allowForWorkspace === true) {
      const host = hostKey(target.host, target.port);
      const kept = await questions.keep(asker.server, host).catch(() => false);
      if (!kept) questions.log?.(`${asker.server}: ${host} allowed for this request only (not kept in settings)`);
    }
    return { allowed: true };
  };
}
