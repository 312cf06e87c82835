import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { pageApi } from './page-api';

/** Replaces the text of the list field (a textbox of entries) named `name` and presses Enter to commit it. */
export async function enterList(user: UserEvent, name: string, text: string): Promise<void> {
  const field = screen.getByRole('textbox', { name });
  await user.clear(field);
  await user.type(field, `${text}{Enter}`);
}

/** Commits `text` in the list setting named `name`: the field must say `message`, and no new save goes to main. */
export async function expectListRefused(user: UserEvent, name: string, text: string, message: string): Promise<void> {
  const savesBefore = pageApi.inputsOf('settings.update').length;
  await enterList(user, name, text);
  expect(screen.getByRole('alert').textContent).toBe(message);
  expect(pageApi.inputsOf('settings.update')).toHaveLength(savesBefore);
}
