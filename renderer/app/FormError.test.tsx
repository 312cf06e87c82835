import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormError } from './FormError';

describe('FormError', () => {
  it('announces the message as an alert: a paragraph, or a span inside a field', () => {
    const { rerender } = render(<FormError message="Could not save." id="save-error" testId="save" />);
    const alert = screen.getByRole('alert');
    expect(alert.tagName).toBe('P');
    expect(alert.textContent).toBe('Could not save.');
    expect(alert.id).toBe('save-error');
    expect(alert.dataset['testid']).toBe('save');
    rerender(<FormError inline message="Out of range." />);
    expect(screen.getByRole('alert').tagName).toBe('SPAN');
  });

  it.each([null, undefined, false])('shows nothing for %s', (message) => {
    const { container } = render(<FormError message={message} />);
    expect(container.innerHTML).toBe('');
  });
});
