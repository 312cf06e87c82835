import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { ApprovalFile } from '../../../shared/ipc/approvals';
import { ApprovalFileList } from './ApprovalFileList';

const files: ApprovalFile[] = [
  { path: 'src/cart.ts', before: 'a', after: 'b', changes: 2 },
  { path: 'src/main.ts', before: 'a', after: 'b', changes: 1 },
  { path: 'src/money.ts', before: 'a', after: 'b' },
];

/** The list as the dialog holds it: the selection lives in the parent. */
function Harness() {
  const [selected, setSelected] = useState(0);
  return (
    <>
      <ApprovalFileList files={files} selected={selected} onSelect={setSelected} panelId="panel" />
      <div id="panel" role="tabpanel">
        showing {files[selected]?.path}
      </div>
      <button type="button">after</button>
    </>
  );
}

const selectedPath = () => screen.getByRole('tab', { selected: true }).getAttribute('data-path');

describe('ApprovalFileList', () => {
  it('names the list and each file with its change count', () => {
    render(<Harness />);
    const list = screen.getByRole('tablist', { name: 'Files changed (3)' });
    expect(list.getAttribute('aria-orientation')).toBe('vertical');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'src/cart.ts 2 changes',
      'src/main.ts 1 change',
      'src/money.ts ',
    ]);
    expect(selectedPath()).toBe('src/cart.ts');
  });

  it('is one tab stop whose arrow keys, Home and End choose the file shown', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    expect(document.activeElement?.getAttribute('data-path')).toBe('src/cart.ts');
    await user.keyboard('{ArrowDown}');
    expect(selectedPath()).toBe('src/main.ts');
    expect(document.activeElement?.getAttribute('data-path')).toBe('src/main.ts');
    expect(screen.getByRole('tabpanel').textContent).toBe('showing src/main.ts');
    await user.keyboard('{End}');
    expect(selectedPath()).toBe('src/money.ts');
    await user.keyboard('{ArrowDown}');
    expect(selectedPath()).toBe('src/money.ts');
    await user.keyboard('{Home}');
    expect(selectedPath()).toBe('src/cart.ts');
    await user.keyboard('{ArrowUp}');
    expect(selectedPath()).toBe('src/cart.ts');
    // Tab leaves the list (one stop), on to what follows it.
    await user.tab();
    expect(document.activeElement?.textContent).toBe('after');
  });

  it('shows a file when it is clicked', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('tab', { name: /src\/money\.ts/ }));
    expect(selectedPath()).toBe('src/money.ts');
  });
});
