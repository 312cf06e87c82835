import type { ScheduleNotification } from '../../shared/ipc/schedules';
import type { Result } from '../../shared/result';
import type { ScheduledTask } from '../../shared/schedule-settings';
import type { ChatService } from '../agent/chat-service';
import type { ConversationStore } from '../domain/conversations/conversation-store';
import { lastAttempt } from '../domain/conversations/transcript-fold';
import type { RunInfo, RunOutcome } from '../domain/schedules/scheduler';
import type { ToolExecutor } from '../tool-calls/tool-executor';

/** What the heartbeat's answer must be when nothing needs the user (OpenClaw's token). */
export const HEARTBEAT_OK = 'HEARTBEAT_OK';
/** An answer that carries the token with at most this much around it still counts as "nothing to say". */
const OK_SLACK_CHARS = 300;

/** The conversations scheduled runs are going in, and what each may do differently from a chat. */
export interface RunScope {
  /** A task's own folder, by conversation. */
  readonly workspaces: Map<string, string>;
  /** Conversations whose calls the policy asks about are refused instead (nobody is asked). */
  readonly unattended: Set<string>;
  /** Task conversations running now, with the task's name (an approval they wait for notifies). */
  readonly tasks: Map<string, string>;
  /** Familiar is quitting: no run starts a turn any more. */
  closing: boolean;
}

export const createRunScope = (): RunScope => ({
  workspaces: new Map(),
  unattended: new Set(),
  tasks: new Map(),
  closing: false,
});

/** The executor a chat uses, refusing instead of asking in the conversations the scope marks unattended. */
export function unattendedWhere(executor: ToolExecutor, unattended: (conversationId: string) => boolean): ToolExecutor {
  return {
    list: (conversationId) => executor.list(conversationId),
    ...(executor.refreshList === undefined ? {} : { refreshList: () => executor.refreshList?.() ?? Promise.resolve() }),
    systemPrompt: (conversationId) => executor.systemPrompt(conversationId),
    execute: (call, signal, hooks) =>
      executor.execute(call, signal, unattended(call.conversationId) ? { ...hooks, unattended: true } : hooks),
    beginTurn: (conversationId, sources) => executor.beginTurn(conversationId, sources),
    cancelPending: (conversationId, reason) => executor.cancelPending(conversationId, reason),
  };
}

/** Is this answer the heartbeat's "nothing to report"? */
export function isHeartbeatOk(answer: string): boolean {
  const text = answer.trim();
  if (text.startsWith(HEARTBEAT_OK)) return text.length - HEARTBEAT_OK.length <= OK_SLACK_CHARS;
  if (text.endsWith(HEARTBEAT_OK)) return text.length - HEARTBEAT_OK.length <= OK_SLACK_CHARS;
  return false;
}

/** HEARTBEAT.md with nothing to do: only blank lines, headings and HTML comments (OpenClaw skips those too). */
export function isEffectivelyEmpty(text: string): boolean {
  return (
    text
      .replace(/<!--[\s\S]*?-->/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^#+\s/.test(line.trim())).length === 0
  );
}

export interface ScheduleRunsDeps {
  readonly conversations: ConversationStore;
  readonly chat: ChatService;
  readonly scope: RunScope;
  readonly readHeartbeat: () => Promise<string>;
  /** A task's folder checked now (it may be gone since it was chosen): its real path. */
  readonly checkWorkspace: (path: string) => Promise<Result<string>>;
  readonly notify: (notification: Omit<ScheduleNotification, 'id' | 'at'>) => void;
}

/** The answer of a conversation's last turn, as a run's outcome. */
async function outcomeOf(conversations: ConversationStore, conversationId: string): Promise<RunOutcome> {
  const loaded = await conversations.load(conversationId);
  if (!loaded.ok) return { status: 'error', toolCalls: 0, error: loaded.error.message, conversationId };
  const last = lastAttempt(loaded.value.folded);
  const parts = last?.attempt.steps.flatMap((step) => step.parts) ?? [];
  const result = parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('')
    .trim();
  const toolCalls = parts.filter((part) => part.type === 'tool').length;
  const end = last?.attempt.end;
  if (end?.status === 'complete') return { status: 'ok', toolCalls, result, conversationId };
  const error = end?.error?.message ?? (end?.status === 'stopped' ? 'The run was stopped.' : 'The run did not finish.');
  return { status: 'error', toolCalls, ...(result === '' ? {} : { result }), error, conversationId };
}

/** Sends the prompt into the conversation and waits for the whole turn (approvals included). */
async function runTurn(deps: ScheduleRunsDeps, conversationId: string, prompt: string): Promise<RunOutcome> {
  // Checked with no await before send claims the conversation, so a quit's stop-all cannot miss it.
  if (deps.scope.closing) return { status: 'error', toolCalls: 0, error: 'Familiar quit first.', conversationId };
  const sent = await deps.chat.send(conversationId, prompt);
  if (!sent.ok) return { status: 'error', toolCalls: 0, error: sent.error.message, conversationId };
  await deps.chat.idle(conversationId);
  return outcomeOf(deps.conversations, conversationId);
}

const lateNote = (info: RunInfo) =>
  info.late && info.scheduledFor !== null
    ? `\n\n(This run was due at ${info.scheduledFor.toISOString()} while Familiar was closed: it is late.)`
    : '';

/** Runs one task: a conversation of its own, titled with the task's name, in the task's folder. */
export async function runScheduledTask(
  deps: ScheduleRunsDeps,
  task: ScheduledTask,
  info: RunInfo,
): Promise<RunOutcome> {
  let workspace: string | undefined;
  if (task.workspace !== null) {
    const checked = await deps.checkWorkspace(task.workspace);
    if (!checked.ok) {
      const error = `The task's folder cannot be opened: ${checked.error.message}`;
      deps.notify({ kind: 'error', title: task.name, body: error });
      return { status: 'error', toolCalls: 0, error };
    }
    workspace = checked.value;
  }
  const created = await deps.conversations.create();
  if (!created.ok) return { status: 'error', toolCalls: 0, error: created.error.message };
  const conversationId = created.value.id;
  await deps.conversations.rename(conversationId, task.name);
  const { scope } = deps;
  if (workspace !== undefined) scope.workspaces.set(conversationId, workspace);
  if (task.toolPolicy === 'refuse') scope.unattended.add(conversationId);
  scope.tasks.set(conversationId, task.name);
  try {
    const outcome = await runTurn(deps, conversationId, `${task.prompt}${lateNote(info)}`);
    const late = info.late ? ' (late)' : '';
    deps.notify({
      kind: outcome.status === 'ok' ? 'task' : 'error',
      title: `${task.name}${late}`,
      body: (outcome.status === 'ok' ? outcome.result : outcome.error) ?? '',
      conversationId,
    });
    return outcome;
  } finally {
    scope.workspaces.delete(conversationId);
    scope.unattended.delete(conversationId);
    scope.tasks.delete(conversationId);
  }
}

/**
 * One heartbeat: HEARTBEAT.md as the prompt, in a held conversation nobody sees. HEARTBEAT_OK leaves
 * only the history line; any other answer keeps the conversation and notifies. Nobody watches a
 * heartbeat, so a call the policy asks about is refused (the model can say what it needs instead).
 */
export async function runHeartbeat(deps: ScheduleRunsDeps, info: RunInfo): Promise<RunOutcome> {
  const checklist = await deps.readHeartbeat();
  if (isEffectivelyEmpty(checklist)) {
    return { status: 'skipped', toolCalls: 0, error: 'HEARTBEAT.md has nothing to check.' };
  }
  const created = await deps.conversations.create({ held: true });
  if (!created.ok) return { status: 'error', toolCalls: 0, error: created.error.message };
  const conversationId = created.value.id;
  deps.scope.unattended.add(conversationId);
  const at = (info.scheduledFor ?? new Date()).toISOString();
  const prompt =
    `${checklist.trim()}\n\n---\nThis is a heartbeat (${at}): go through the checklist above. ` +
    `If nothing needs the user's attention, reply exactly ${HEARTBEAT_OK}. Otherwise say briefly what does.`;
  let outcome: RunOutcome;
  try {
    outcome = await runTurn(deps, conversationId, prompt);
  } finally {
    deps.scope.unattended.delete(conversationId);
  }
  if (outcome.status === 'ok' && isHeartbeatOk(outcome.result ?? '')) {
    deps.conversations.discard(conversationId);
    return { status: 'ok', toolCalls: outcome.toolCalls, result: HEARTBEAT_OK };
  }
  await deps.conversations.rename(conversationId, 'Heartbeat');
  const kept = await deps.conversations.keep(conversationId);
  if (!kept.ok) return { status: 'error', toolCalls: outcome.toolCalls, error: kept.error.message };
  const attention = outcome.status === 'ok';
  deps.notify({
    kind: attention ? 'heartbeat' : 'error',
    title: 'Heartbeat',
    body: (attention ? outcome.result : outcome.error) ?? '',
    conversationId,
  });
  return attention ? { ...outcome, status: 'attention' } : outcome;
}
