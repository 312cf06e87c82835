import { describe, expect, it } from 'vitest';
import { networkedConfinement } from '../test-support/networked-confinement';
import { useClosers } from '../test-support/closers';
import { startLoopbackServer } from '../test-support/loopback-server';
import { useTempDirs } from '../test-support/temp-dir';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';
import type { ApprovalMode } from '../tool-calls/ask';
import { runCommandTool } from './run-command';
import type { RunCommandOutput } from './run-command';

/**
 * Issue 28, item 2: a confined command has no network; a host it reaches for (through the proxy the
 * sandbox is given) is asked about in the same broker as every other approval, and allowed exactly:
 * that host and port, for the answer's span. Every server here listens on 127.0.0.1, and every
 * request goes there.
 */
const { networked, skipped } = networkedConfinement();

const tempDir = useTempDirs();
const closeAfter = useClosers();

async function setup(approvalMode: ApprovalMode = 'interactive') {
  const kit = await createToolCallsKit(tempDir, [runCommandTool], { approvalMode });
  const server = await startLoopbackServer();
  closeAfter(
    () => kit.kit.dispose(),
    () => server.close(),
  );
  return { kit, server };
}

async function run(kit: ToolCallsKit, command: string, conversationId = 'c1'): Promise<RunCommandOutput> {
  const result = await kit.toolCalls.execute(
    {
      conversationId,
      toolCallId: `t-${Math.random()}`,
      name: 'run_command',
      args: { command, shell: true, timeout: 20 },
    },
    new AbortController().signal,
  );
  if (!result.ok) throw new Error(`run_command failed: ${JSON.stringify(result.error)}`);
  return result.value as RunCommandOutput;
}

/** Node follows HTTP_PROXY with NODE_USE_ENV_PROXY=1 from 22.21 and 24.0 on. */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const nodeFollowsProxy = major >= 24 || (major === 22 && minor >= 21);

/** The network questions the user was asked, as `host:port`. */
const questions = (kit: ToolCallsKit) =>
  kit.requests.flatMap((request) =>
    request.network === undefined ? [] : [`${request.network.host}:${request.network.port}`],
  );

/** curl through the proxy variables the sandbox sets: the status and body, on one line. */
const curl = (url: string, extra = '') => `curl -sS ${extra} -w ' [%{http_code}]' ${url}`;

describe(`a confined command reaches the network only where the user allows it${skipped}`, () => {
  describe.runIf(networked)('asked in the broker, allowed exactly', () => {
    it('a host the user approves answers, over plain http and through a CONNECT tunnel', async () => {
      const { kit, server } = await setup();
      const base = `http://127.0.0.1:${server.port}`;
      const output = await run(kit, `${curl(`${base}/plain`)}; echo; ${curl(`${base}/tunnel`, '--proxytunnel')}`);
      expect(output.stdout, output.stderr).toBe('hello from /plain [200]\nhello from /tunnel [200]');
      expect(server.requests).toEqual(['GET /plain', 'GET /tunnel']);
      // One question, in the broker, naming the command, the host and its port.
      expect(questions(kit)).toEqual([`127.0.0.1:${server.port}`]);
      const question = kit.requests.find((request) => request.network !== undefined);
      expect(question?.tool).toBe('run_command');
      expect(question?.summary).toContain(`wants to reach 127.0.0.1:${server.port}`);
      expect(question?.warnings.join(' ')).toContain('this computer');
      expect(output.network).toEqual([{ host: '127.0.0.1', port: server.port, allowed: true }]);
    });

    it.runIf(nodeFollowsProxy)('Node’s fetch goes through the proxy too (NODE_USE_ENV_PROXY)', async () => {
      const { kit, server } = await setup();
      const output = await run(
        kit,
        `"${process.execPath}" -e "fetch('http://127.0.0.1:${server.port}/fetch').then((r) => r.text()).then(console.log)"`,
      );
      expect(output.stdout, output.stderr).toBe('hello from /fetch\n');
      expect(questions(kit)).toEqual([`127.0.0.1:${server.port}`]);
    });

    it('a host the user rejects gets 403 and the server sees nothing', async () => {
      const { kit, server } = await setup();
      kit.networkAnswer = 'reject';
      const output = await run(
        kit,
        `${curl(`http://127.0.0.1:${server.port}/secret`)}; ${curl(`http://127.0.0.1:${server.port}/again`)}`,
      );
      expect(output.stdout).toContain('[403]');
      expect(output.stdout).toContain('the user refused: not now');
      expect(output.stdout).not.toContain('hello from');
      expect(server.requests).toEqual([]);
      // A refusal holds for the rest of the command: the retry is not asked again.
      expect(questions(kit)).toEqual([`127.0.0.1:${server.port}`]);
      expect(output.network).toEqual([
        { host: '127.0.0.1', port: server.port, allowed: false, reason: 'the user refused: not now' },
      ]);
    });

    it('"once" lasts one command; "for this conversation" covers the next command in it, not another conversation', async () => {
      const { kit, server } = await setup();
      const url = `http://127.0.0.1:${server.port}/x`;
      await run(kit, curl(url));
      await run(kit, curl(url));
      expect(questions(kit)).toHaveLength(2);
      kit.networkAnswer = 'conversation';
      await run(kit, curl(url));
      expect(questions(kit)).toHaveLength(3);
      kit.networkAnswer = 'reject';
      const later = await run(kit, curl(url));
      expect(later.stdout).toBe('hello from /x [200]');
      expect(questions(kit)).toHaveLength(3);
      const elsewhere = await run(kit, curl(url), 'another-conversation');
      expect(elsewhere.stdout).toContain('[403]');
      expect(questions(kit)).toHaveLength(4);
    });

    it('an allowed host allows no other port and no other name for the same address', async () => {
      const { kit, server } = await setup();
      const other = await startLoopbackServer();
      closeAfter(() => other.close());
      kit.networkAnswer = 'conversation';
      await run(kit, curl(`http://127.0.0.1:${server.port}/allowed`));
      kit.networkAnswer = 'reject';
      const output = await run(
        kit,
        [curl(`http://127.0.0.1:${other.port}/other-port`), curl(`http://localhost:${server.port}/other-name`)].join(
          '; echo; ',
        ),
      );
      expect(output.stdout.match(/\[403\]/g)).toHaveLength(2);
      expect(other.requests).toEqual([]);
      expect(server.requests).toEqual(['GET /allowed']);
      expect(questions(kit)).toEqual([
        `127.0.0.1:${server.port}`,
        `127.0.0.1:${other.port}`,
        `localhost:${server.port}`,
      ]);
    });

    it('concurrent requests to one host wait on one question', async () => {
      const { kit, server } = await setup();
      // Answered late, so that every request arrives while the first question is still open.
      kit.answerDelayMs = 1500;
      const url = `http://127.0.0.1:${server.port}`;
      const output = await run(
        kit,
        `for i in 1 2 3 4; do ${curl(`${url}/$i`)} > out-$i & done; wait; cat out-1 out-2 out-3 out-4`,
      );
      expect(output.stdout).toBe('hello from /1 [200]hello from /2 [200]hello from /3 [200]hello from /4 [200]');
      expect(questions(kit)).toEqual([`127.0.0.1:${server.port}`]);
    });

    it('"always in this workspace" is kept in the allowed hosts and asks no more, in any conversation', async () => {
      const { kit, server } = await setup();
      kit.networkAnswer = 'workspace';
      await run(kit, curl(`http://127.0.0.1:${server.port}/first`));
      expect(kit.kit.services.allowedHosts()).toEqual([
        { host: '127.0.0.1', port: server.port, workspace: kit.kit.env.workspaceRoot, local: false },
      ]);
      kit.networkAnswer = 'reject';
      const later = await run(kit, curl(`http://127.0.0.1:${server.port}/later`), 'another-conversation');
      expect(later.stdout).toBe('hello from /later [200]');
      expect(questions(kit)).toHaveLength(1);
    });

    it('with --approve all and nobody to ask, a host not allowed in settings is refused, not approved', async () => {
      const { kit, server } = await setup('approve-all');
      const output = await run(kit, curl(`http://127.0.0.1:${server.port}/approve-all`));
      expect(output.stdout).toContain('[403]');
      expect(output.stdout).toContain('no person can be asked');
      expect(server.requests).toEqual([]);
      expect(kit.requests).toEqual([]);
    });

    it('without the proxy variables a command still has no network', async () => {
      const { kit, server } = await setup();
      const output = await run(kit, `${curl(`http://127.0.0.1:${server.port}/direct`, '--noproxy "*"')}; true`);
      expect(output.stdout).not.toContain('hello');
      expect(server.requests).toEqual([]);
      expect(questions(kit)).toEqual([]);
    });
  });
});
