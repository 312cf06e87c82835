import { err } from '../../shared/result';
import type { ToolExecutor } from './tool-executor';

export const DEFAULT_PERSONA =
  "You are Familiar, a helpful assistant on the user's computer. Answer clearly and concisely.";

/**
 * The executor used until the policy registry (main/policy) is wired in create-core: it offers the
 * model no tools at all and a one-line persona. Not a fake: a chat with no tools is a real, honest
 * configuration (the model is told nothing it cannot do).
 */
export function createNoToolsExecutor(persona = DEFAULT_PERSONA): ToolExecutor {
  return {
    list: () => [],
    systemPrompt: () => Promise.resolve(persona),
    execute: (call) => Promise.resolve(err('unknown_tool', `There is no tool named ${call.name}.`)),
    cancelPending: () => undefined,
  };
}
