import { calls, events } from '../../shared/ipc/contract';
import type {
  CallName,
  CallOutput,
  EventName,
  EventPayload,
  FamiliarApi,
  ParsedCallInput,
} from '../../shared/ipc/contract';
import { err } from '../../shared/result';
import type { Result } from '../../shared/result';
import { addEventListener } from '../ipc/event-listeners';
import type { EventListeners } from '../ipc/event-listeners';

export type Answer<N extends CallName> = (
  input: ParsedCallInput<N>,
) => Result<CallOutput<N>> | Promise<Result<CallOutput<N>>>;
/** Answers by call name, to start (or reset) with a set of them at once. */
export type Answers = { [N in CallName]?: Answer<N> };

export interface RecordedCall {
  readonly name: CallName;
  readonly input: unknown;
}

export interface ContractApi {
  readonly api: FamiliarApi;
  /** Every call the page made, after its input passed the contract (as main's dispatcher checks it). */
  readonly calls: RecordedCall[];
  /** Inputs of the calls named `name`, as the contract parsed them. */
  inputsOf<N extends CallName>(name: N): ParsedCallInput<N>[];
  /** Sets (or replaces, mid-test) how `name` is answered. */
  answer<N extends CallName>(name: N, answer: Answer<N>): void;
  /** Pushes an event as main would: the payload must satisfy the contract. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /**
   * Forgets answers and recorded calls, then answers with `next` (listeners stay: components
   * unsubscribe when unmounted).
   */
  reset(next?: Answers): void;
}

/**
 * The page's side of the contract for component tests: inputs, outputs and event payloads are all
 * parsed by the real contract schemas, so a component that sends a malformed call fails here exactly
 * as it would against the core, and a test cannot feed the page anything the real core could not
 * send. Calls without an answer get `unknown_call`. The answers are the test's own input data.
 */
export function createContractApi(initial: Answers = {}): ContractApi {
  const answers = new Map<CallName, (input: unknown) => Result<unknown> | Promise<Result<unknown>>>();
  const listeners: EventListeners = new Map();
  const recorded: RecordedCall[] = [];
  const answerAll = (all: Answers) => {
    for (const [name, answer] of Object.entries(all)) {
      answers.set(name as CallName, answer as (input: unknown) => Result<unknown>);
    }
  };
  answerAll(initial);

  const api: FamiliarApi = {
    async invoke(name, input) {
      const parsed = calls[name].input.safeParse(input);
      if (!parsed.success) throw new Error(`${name} sent outside the contract: ${parsed.error.message}`);
      recorded.push({ name, input: parsed.data });
      const answer = answers.get(name);
      if (answer === undefined) return err('unknown_call', `This test does not answer ${name}.`);
      const result = await answer(parsed.data);
      if (!result.ok) return result;
      const output = calls[name].output.safeParse(result.value);
      if (!output.success) throw new Error(`The test answered ${name} outside the contract: ${output.error.message}`);
      return { ok: true, value: output.data } as never;
    },
    on: (event, listener) => addEventListener(listeners, event, listener),
  };

  return {
    api,
    calls: recorded,
    inputsOf: <N extends CallName>(name: N) =>
      recorded.filter((call) => call.name === name).map((call) => call.input as ParsedCallInput<N>),
    answer(name, answer) {
      answers.set(name, answer as (input: unknown) => Result<unknown>);
    },
    reset(next = {}) {
      answers.clear();
      recorded.length = 0;
      answerAll(next);
    },
    emit(event, payload) {
      const parsed = events[event].parse(payload);
      for (const listener of listeners.get(event) ?? []) listener(parsed);
    },
  };
}
