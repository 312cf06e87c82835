import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { pageApi } from './page-api';

/** Replaces the text of the number field named `name` and presses Enter, as a person commits a value. */
export async function enterNumber(user: UserEvent, name: string, text: string): Promise<void> {
  const field = screen.getByRole('spinbutton', { name });
  await user.clear(field);
  await user.type(field, `${text}{Enter}`);
}

/** Commits `text` in the number setting named `name`: the field must say `message` and save nothing. */
export async function expectNumberRefused(user: UserEvent, name: string, text: string, message: string): Promise<void> {
  await enterNumber(user, name, text);
  expect(screen.getByRole('alert').textContent).toBe(message);
  expect(pageApi.inputsOf('settings.update')).toEqual([]);
}
