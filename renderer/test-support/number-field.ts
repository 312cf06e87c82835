import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Replaces the text of the number field named `name` and presses Enter, as a person commits a value. */
export async function enterNumber(user: UserEvent, name: string, text: string): Promise<void> {
  const field = screen.getByRole('spinbutton', { name });
  await user.clear(field);
  await user.type(field, `${text}{Enter}`);
}
