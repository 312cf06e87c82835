import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';

describe('Button', () => {
  it('never submits the form it sits in: a press only calls onClick', async () => {
    const submit = vi.fn((event: SubmitEvent) => event.preventDefault());
    const click = vi.fn();
    render(
      <form onSubmit={(event) => submit(event.nativeEvent)}>
        <Button onClick={click}>Add</Button>
      </form>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add' }));
    expect(click).toHaveBeenCalledTimes(1);
    expect(submit).not.toHaveBeenCalled();
  });

  it('spells its look as classes and keeps a placement class after them', () => {
    render(
      <>
        <Button>Plain</Button>
        <Button look="primary">Save</Button>
        <Button look="small" className="panel-toggle" aria-expanded={false}>
          Files
        </Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Plain' }).className).toBe('button');
    expect(screen.getByRole('button', { name: 'Save' }).className).toBe('button button-primary');
    const files = screen.getByRole('button', { name: 'Files' });
    expect(files.className).toBe('button button-small panel-toggle');
    expect(files.getAttribute('aria-expanded')).toBe('false');
  });
});
