import { describe, expect, it } from 'vitest';
import type { ApprovalInput, ApprovalOutcome } from '../approvals/broker';
import { askServerHost, serverGate } from './mcp-server-network';
import type { HostAnswer } from './mcp-server-network';

/**
 * A server's network gate and its question, without a process: the grants pass, one question per
 * host however many requests wait on it, a person's refusal not asked again, nobody asked outside a call.
 */
const signal = new AbortController().signal;
const target = { host: 'api.example.com', port: 443 };

function gateWith(answer: () => Promise<HostAnswer>, hosts: string[] = []) {
  const refused: string[] = [];
  let asked = 0;
  const gate = serverGate({
    hosts: () => hosts,
    onRefused: (host) => refused.push(host),
    ask: () => {
      asked += 1;
      return answer();
    },
  });
  return { gate, refused, asked: () => asked, hosts };
}

describe('serverGate', () => {
  it('lets a granted host (any port, or that port) through without asking', async () => {
    const { gate, asked } = gateWith(() => Promise.reject(new Error('asked')), ['api.example.com', 'other.test:8080']);
    expect(await gate(target, signal)).toEqual({ allowed: true, local: false });
    expect(await gate({ host: 'other.test', port: 8080 }, signal)).toEqual({ allowed: true, local: false });
    expect(asked()).toBe(0);
  });

  it('asks once for requests waiting together; "once" lets those through and the next asks again', async () => {
    let release: (answer: HostAnswer) => void = () => undefined;
    const { gate, asked } = gateWith(() => new Promise((resolve) => (release = resolve)));
    const waiting = [gate(target, signal), gate(target, signal), gate(target, signal)];
    await Promise.resolve();
    release({ allowed: true });
    expect(await Promise.all(waiting)).toEqual(Array(3).fill({ allowed: true, local: false }));
    expect(asked()).toBe(1);
    void gate(target, signal);
    expect(asked()).toBe(2);
  });

  it('a person’s refusal holds without asking again; a refusal nobody gave asks next time', async () => {
    const answers: HostAnswer[] = [
      { allowed: false, reason: 'it asked outside a tool call', answered: false },
      { allowed: false, reason: 'the user refused: no', answered: true },
    ];
    const { gate, asked, refused } = gateWith(() => Promise.resolve(answers.shift()!));
    expect(await gate(target, signal)).toMatchObject({ allowed: false, reason: /outside a tool call/ });
    expect(await gate(target, signal)).toMatchObject({ allowed: false, reason: /the user refused: no/ });
    expect(await gate(target, signal)).toMatchObject({ allowed: false, reason: /the user refused: no/ });
    expect(asked()).toBe(2);
    expect(refused).toEqual(['api.example.com:443', 'api.example.com:443', 'api.example.com:443']);
  });

  it('without anyone to ask, refuses as before and reports the host', async () => {
    const refused: string[] = [];
    const gate = serverGate({ hosts: () => [], onRefused: (host) => refused.push(host) });
    expect(await gate({ host: '::1', port: 80 }, signal)).toMatchObject({ allowed: false });
    expect(refused).toEqual(['[::1]:80']);
  });
});

describe('askServerHost', () => {
  const call = { conversationId: 'c-1', toolCallId: 't-1', name: 'github__search' };
  const approve = (extra: Partial<Extract<ApprovalOutcome, { approved: true }>> = {}): ApprovalOutcome => ({
    approved: true,
    allowForConversation: false,
    ...extra,
  });

  it('asks in the call’s conversation, naming the server and the host; "always" keeps it', async () => {
    const inputs: ApprovalInput[] = [];
    const kept: string[] = [];
    const ask = askServerHost({
      ask: (input) => {
        inputs.push(input);
        return Promise.resolve(approve({ allowForWorkspace: true }));
      },
      keep: (server, host) => Promise.resolve(kept.push(`${server} ${host}`) > 0),
    });
    expect(await ask({ server: 'github', call }, target, signal)).toEqual({ allowed: true });
    expect(inputs).toEqual([
      expect.objectContaining({
        conversationId: 'c-1',
        toolCallId: 't-1',
        tool: 'github__search',
        summary: 'The MCP server "github" wants to reach api.example.com:443',
        canAllowForConversation: false,
        network: { host: 'api.example.com', port: 443, kind: 'mcp-server', server: 'github' },
      }),
    ]);
    expect(kept).toEqual(['github api.example.com:443']);
  });

  it('outside a call nobody is asked; an expired question counts as answered', async () => {
    let asked = 0;
    const ask = askServerHost({
      ask: () => {
        asked += 1;
        return Promise.resolve({ approved: false, reason: 'late', expired: true });
      },
      keep: () => Promise.resolve(true),
    });
    expect(await ask({ server: 'github' }, target, signal)).toMatchObject({ allowed: false, answered: false });
    expect(asked).toBe(0);
    expect(await ask({ server: 'github', call }, target, signal)).toEqual({
      allowed: false,
      reason: 'nobody answered the question in time',
      answered: true,
    });
  });

  it('a question withdrawn (its call ended, the turn stopped) is no answer', async () => {
    const ask = askServerHost({
      ask: () => Promise.resolve({ approved: false, reason: 'The turn was stopped.', expired: false, cancelled: true }),
      keep: () => Promise.resolve(true),
    });
    expect(await ask({ server: 'github', call }, target, signal)).toMatchObject({ allowed: false, answered: false });
  });
});
