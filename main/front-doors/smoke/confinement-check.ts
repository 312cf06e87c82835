import type { FamiliarApi } from '../../../shared/ipc/contract';
import { confinementScript } from './smoke-script';
import type { SmokeLlmServer } from './smoke-llm-server';

/**
 * The smoke test's `confinement` check (issue 28): one command, run by the model through
 * run_command exactly as a user's would be (the tool-call pipeline, the approval, the process
 * runner and its confinement), must write inside the workspace and be refused outside it. On Linux
 * and macOS a command that ran unconfined fails the check, and so the release; Windows has no
 * operating-system sandbox for commands (SECURITY.md), which the check says and passes.
 */

export interface ConfinementCheck {
  readonly ok: boolean;
  readonly detail: string;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The outside targets: Familiar's own home, which a confined command must neither write nor read. */
export function confinementCommand(familiarHome: string): string {
  const outside = `${familiarHome}/familiar-smoke-outside.txt`;
  const secret = `${familiarHome}/settings.json`;
  return [
    `if { printf ${quote(confinementScript.insideContent)} > ${quote(confinementScript.insideFile)}; } 2>/dev/null; then echo INSIDE=written; else echo INSIDE=refused; fi`,
    `if { echo outside > ${quote(outside)}; } 2>/dev/null; then echo OUTSIDE=written; else echo OUTSIDE=refused; fi`,
    `if cat ${quote(secret)} >/dev/null 2>&1; then echo SECRET=read; else echo SECRET=refused; fi`,
  ].join('\n');
}

interface CommandResult {
  readonly confined?: unknown;
  readonly stdout?: unknown;
  readonly exit_code?: unknown;
}

/** run_command's result as the model was sent it (JSON text), or why there is none. */
function parseResult(text: string | undefined): CommandResult | string {
  if (text === undefined) return 'run_command never answered the model';
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && 'confined' in value) return value;
  } catch {
    // Not JSON: said below.
  }
  return `run_command failed: ${text.slice(0, 300)}`;
}

/**
 * Pure: what the command's result and the file it wrote say about the confinement (Linux, macOS):
 * it passes only when the command wrote inside, was refused outside, and ran confined.
 */
export function judgeConfinement(
  resultText: string | undefined,
  insideText: string | undefined,
  unconfinedReason: string | undefined,
): ConfinementCheck {
  const result = parseResult(resultText);
  if (typeof result === 'string') return { ok: false, detail: result };
  const lines = (typeof result.stdout === 'string' ? result.stdout : '').split('\n');
  const said = (name: string) => lines.find((line) => line.startsWith(`${name}=`))?.slice(name.length + 1) ?? 'silent';
  const outcomes = `inside ${said('INSIDE')}, outside ${said('OUTSIDE')}, Familiar's settings ${said('SECRET')}`;
  const wroteInside = said('INSIDE') === 'written' && insideText === confinementScript.insideContent;
  if (!wroteInside) return { ok: false, detail: `the command did not write inside the workspace (${outcomes})` };
  if (result.confined !== true) {
    const why = unconfinedReason === undefined ? '' : `: ${unconfinedReason}`;
    return { ok: false, detail: `the command ran UNCONFINED${why} (${outcomes})` };
  }
  const refused = said('OUTSIDE') === 'refused' && said('SECRET') === 'refused';
  return { ok: refused, detail: `confined: ${outcomes}` };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the check's message in a conversation of its own, approves the command when it is asked
 * about (as a person would in the dialog, here through the same contract call), waits for the
 * turn to end, and judges what the model was sent back.
 */
export async function runConfinementCheck(
  core: Pick<FamiliarApi, 'invoke'>,
  llm: SmokeLlmServer,
  timeoutMs: number,
): Promise<ConfinementCheck> {
  const info = await core.invoke('app.info', {});
  const confinement = await core.invoke('app.confinement', {});
  if (!info.ok || !confinement.ok) return { ok: false, detail: 'app.info or app.confinement failed' };
  const mode = confinement.value.mode;
  const unconfinedReason = mode.confined ? undefined : mode.reason;
  // cmd.exe would not read the script, and there is no sandbox there to prove (SECURITY.md).
  if (info.value.platform === 'win32') {
    return {
      ok: true,
      detail: `unconfined (no OS sandbox on this platform)${mode.confined ? '' : `: ${mode.reason}`}`,
    };
  }
  const conversation = await core.invoke('conversations.create', {});
  if (!conversation.ok) return { ok: false, detail: conversation.error.message };
  const conversationId = conversation.value.id;
  const sent = await core.invoke('chat.send', { conversationId, text: confinementScript.userMessage });
  if (!sent.ok) return { ok: false, detail: sent.error.message };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > deadline) return { ok: false, detail: `the check's turn did not end within ${timeoutMs} ms` };
    const pending = await core.invoke('approvals.list', {});
    for (const request of pending.ok ? pending.value.pending : []) {
      if (request.conversationId === conversationId && request.tool === 'run_command') {
        await core.invoke('approvals.answer', { id: request.id, decision: 'approve' });
      }
    }
    const opened = await core.invoke('conversations.open', { id: conversationId });
    const last = opened.ok ? opened.value.messages.at(-1) : undefined;
    if (opened.ok && opened.value.runningTurnId === null && last?.role === 'assistant' && last.status !== 'running') {
      break;
    }
    await pause(100);
  }
  const answered = llm.requests.find((request) => request.script === 'confinement' && request.toolResult !== undefined);
  const inside = await core.invoke('workspace.readFile', { path: confinementScript.insideFile });
  return judgeConfinement(answered?.toolResult, inside.ok ? inside.value.text : undefined, unconfinedReason);
}
