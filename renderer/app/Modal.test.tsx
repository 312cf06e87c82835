import '../test-support/page-api';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from './Modal';
import type { ModalProps } from './Modal';

/** A page with a button that opens the modal, as every dialog's owner does. */
function Page(props: Partial<ModalProps>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="Things" closeLabel="Close" {...props}>
        <input aria-label="Name" />
        <button type="button">Save</button>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('opens named by its title, with focus on the close button, and mounts its content only while open', async () => {
    render(<Page />);
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Things' });
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });

  it('keeps Tab inside: past the last control it wraps to the first, and back', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const close = screen.getByRole('button', { name: 'Close' });
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.keyDown(save, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(save);
  });

  it('closes on Esc (the native cancel) and gives focus back to the button that opened it', async () => {
    const onClose = vi.fn();
    function Tracked() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
          <Modal
            open={open}
            onClose={() => {
              onClose();
              setOpen(false);
            }}
            title="Things"
          >
            <button type="button" data-autofocus>
              Inside
            </button>
          </Modal>
        </>
      );
    }
    render(<Tracked />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    const dialog = screen.getByRole<HTMLDialogElement>('dialog', { name: 'Things' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Inside' }));
    // What the browser does on Esc: `cancel`, then (not prevented) close.
    act(() => {
      if (fireEvent(dialog, new Event('cancel', { cancelable: true }))) dialog.close();
    });
    expect(onClose).toHaveBeenCalled();
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('lets a dialog that must not be dismissed turn Esc into its own action', async () => {
    const onEscape = vi.fn();
    render(<Page onEscape={onEscape} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole<HTMLDialogElement>('dialog', { name: 'Things' });
    expect(fireEvent(dialog, new Event('cancel', { cancelable: true }))).toBe(false);
    expect(onEscape).toHaveBeenCalledTimes(1);
    expect(dialog.open).toBe(true);
  });

  it('is named by a heading inside its content when it has no title of its own', () => {
    render(
      <Modal open onClose={() => undefined} labelledBy="inner-title" describedBy="inner-text">
        <h2 id="inner-title">Inner</h2>
        <p id="inner-text">Why</p>
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'Inner', description: 'Why' })).toBeTruthy();
  });
});
