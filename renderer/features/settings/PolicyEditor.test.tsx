import { pageApi } from '../../test-support/page-api';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultPolicy, policySchema } from '../../../shared/policy';
import type { Policy } from '../../../shared/policy';
import { err, ok } from '../../../shared/result';
import { PolicyEditor } from './PolicyEditor';

let stored: Policy;
let loadError: string | null;

/** Answers as the core does: the whole table through the shared schema, refused with invalid_policy. */
beforeEach(() => {
  pageApi.reset();
  stored = defaultPolicy();
  loadError = null;
  pageApi.answer('policy.get', () => ok({ policy: stored, loadError }));
  pageApi.answer('policy.update', ({ policy }) => {
    const parsed = policySchema.safeParse(policy);
    if (!parsed.success) {
      return err('invalid_policy', `The policy was not changed: ${parsed.error.issues[0]?.message ?? ''}`);
    }
    stored = parsed.data;
    return ok({ policy: stored, loadError: null });
  });
  pageApi.answer('policy.reset', () => {
    stored = defaultPolicy();
    return ok({ policy: stored, loadError: null });
  });
});

const rows = () => screen.getAllByTestId('policy-row');

describe('PolicyEditor', () => {
  it('shows the table as main has it, with why policy.json was not used', async () => {
    loadError = 'policy.json is not valid JSON';
    render(<PolicyEditor />);
    expect((await screen.findByTestId('policy-load-error')).textContent).toContain('policy.json is not valid JSON');
    expect(rows()).toHaveLength(5);
    expect(screen.getByLabelText<HTMLInputElement>('Pattern of row 1').value).toBe('SOUL.md');
    expect(screen.getByLabelText<HTMLSelectElement>('Write in row 1').value).toBe('ask');
    expect(screen.getByLabelText<HTMLSelectElement>('Run in row 1').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('Row 2 needs memory on').checked).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save policy' }).disabled).toBe(true);
  });

  it('marks a field main will refuse and shows main’s message when it does, keeping the draft', async () => {
    render(<PolicyEditor />);
    await screen.findAllByTestId('policy-row');
    await userEvent.clear(screen.getByLabelText('Pattern of row 2'));
    expect(screen.getByLabelText('Pattern of row 2').getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Save policy' }));
    expect((await screen.findByTestId('policy-error')).textContent).toContain('The policy was not changed');
    expect(stored).toEqual(defaultPolicy());
    expect(screen.getByLabelText<HTMLInputElement>('Pattern of row 2').value).toBe('');

    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(screen.getByLabelText<HTMLInputElement>('Pattern of row 2').value).toBe('USER.md');
    expect(screen.queryByTestId('policy-error')).toBeNull();
  });

  it('adds a row above the catch-all, reorders, and saves exactly the table shown', async () => {
    render(<PolicyEditor />);
    await screen.findAllByTestId('policy-row');
    await userEvent.click(screen.getByRole('button', { name: 'Add a row' }));
    expect(rows()).toHaveLength(6);
    await userEvent.type(screen.getByLabelText('Pattern of row 5'), 'secrets/**');
    await userEvent.selectOptions(screen.getByLabelText('Read in row 5'), 'deny');
    await userEvent.click(screen.getByRole('button', { name: 'Move row 5 up' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove row 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText('Policy saved.')).toBeTruthy();
    const sent = pageApi.calls.filter((call) => call.name === 'policy.update').map((call) => call.input);
    const expected = defaultPolicy();
    expected.rules.splice(3, 0, { pattern: 'secrets/**', decisions: { read: 'deny' }, memory: false });
    expected.rules.shift();
    expect(sent).toEqual([{ policy: expected }]);
    expect(stored).toEqual(expected);
  });

  it('resets to the defaults only after a confirmation', async () => {
    stored = {
      version: 1,
      rules: [{ pattern: '**', decisions: defaultPolicy().rules[4]?.decisions ?? {}, memory: false }],
    };
    render(<PolicyEditor />);
    await screen.findAllByTestId('policy-row');
    expect(rows()).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Reset to defaults…' }));
    const section = screen.getByRole('region', { name: 'Permission policy' });
    expect(within(section).getByText('Replace the whole table with the defaults?')).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Policy saved.')).toBeTruthy();
    expect(rows()).toHaveLength(5);
  });
});
