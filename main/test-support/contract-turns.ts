import { expect } from 'vitest';
import type { ContractCore } from './contract-core';

/** Sends `text` in a new conversation (the chat events seen so far forgotten); its id. */
export async function sendInNewConversation(run: ContractCore, text: string): Promise<string> {
  run.chatEvents.length = 0;
  const { id } = await run.call<{ id: string }>('conversations.create', {});
  await run.call('chat.send', { conversationId: id, text });
  return id;
}

/**
 * The model changes memory with `tool` right after outside text came in: the change is asked about,
 * the warning names where the text came from (`source`); it is rejected and the turn ends.
 */
export async function expectOutsideTextWarning(run: ContractCore, tool: string, source: string): Promise<void> {
  const request = await run.pending();
  expect(request).toMatchObject({ tool });
  expect(request.warnings[0]).toMatch(/may be influenced/);
  expect(request.warnings[0]).toContain(source);
  await run.call('approvals.answer', { id: request.id, decision: 'reject' });
  await run.turnEnd();
}
