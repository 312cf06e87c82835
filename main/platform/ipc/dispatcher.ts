import type { z } from 'zod';
import { calls, isCallName } from '../../../shared/ipc/contract';
import type { CallName, CallOutput, ParsedCallInput } from '../../../shared/ipc/contract';
import { err } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/** Who is calling: lets handlers scope per-client state (e.g. one browser tab vs another). */
export interface CallContext {
  readonly transport: 'electron' | 'browser' | 'direct';
  readonly clientId: string;
}

export type Handler<N extends CallName> = (
  input: ParsedCallInput<N>,
  ctx: CallContext,
) => Promise<Result<CallOutput<N>>> | Result<CallOutput<N>>;

export type Handlers = { [N in CallName]: Handler<N> };

export type Dispatch = (name: unknown, input: unknown, ctx: CallContext) => Promise<Result<unknown>>;

export interface DispatcherOptions {
  /** Where programmer errors (a handler that threw) are reported; never to the renderer. */
  readonly logError: (message: string, error: unknown) => void;
}

const describeIssues = (issues: readonly z.core.$ZodIssue[]): string =>
  issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');

/**
 * The only way into main's handlers. The renderer is untrusted: names are checked against the
 * contract, inputs parsed by its schemas, and outputs parsed too, so a handler can never leak a
 * field the contract does not declare (an API key, say).
 */
export function createDispatcher(handlers: Handlers, options: DispatcherOptions): Dispatch {
  return async (name, input, ctx) => {
    if (!isCallName(name)) {
      return err('unknown_call', `There is no call named ${JSON.stringify(String(name)).slice(0, 120)}.`);
    }
    const spec = calls[name];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      return err('invalid_payload', `Invalid input for ${name}: ${describeIssues(parsed.error.issues)}`, {
        call: name,
      });
    }
    // The schema above checked `input` for this very name, so the handler's own input type holds.
    const handler = handlers[name] as (input: unknown, ctx: CallContext) => ReturnType<Handler<CallName>>;
    let result: Result<unknown>;
    try {
      result = await handler(parsed.data, ctx);
    } catch (error) {
      options.logError(`Handler for ${name} threw`, error);
      return err('internal_error', `Familiar hit an internal error while handling ${name}.`);
    }
    if (!result.ok) return result;
    const output = spec.output.safeParse(result.value);
    if (!output.success) {
      options.logError(`Handler for ${name} answered outside its contract`, output.error);
      return err('internal_error', `Familiar answered ${name} with data outside its contract.`);
    }
    return { ok: true, value: output.data };
  };
}
