import { pageApi } from '../../test-support/page-api';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { useI18nStore } from '../../i18n/i18n';
import type { Locale } from '../../i18n/i18n';
import { editRequest } from '../../test-support/approval-requests';
import { approvalsLikeTheCoreInEachTest } from '../../test-support/approvals-answer';
import { ApprovalDialog } from './ApprovalDialog';
import { approvalsActions } from './approvals-store';

/** An MCP server reaching for a host not granted to it (issue 29): the card in each language. */
const answers = approvalsLikeTheCoreInEachTest();
afterEach(() => useI18nStore.getState().setLocale('en'));

const serverHost = (): ApprovalRequest =>
  editRequest({
    tool: 'github__search',
    summary: 'The MCP server "github" wants to reach api.github.com:443',
    paths: [],
    operations: [],
    before: undefined,
    after: undefined,
    beforeBytes: undefined,
    afterBytes: undefined,
    canAllowForConversation: false,
    facts: {},
    network: { host: 'api.github.com', port: 443, kind: 'mcp-server', server: 'github' },
  });

async function showDialog(locale: Locale, ...requests: ApprovalRequest[]) {
  useI18nStore.getState().setLocale(locale);
  render(<ApprovalDialog />);
  approvalsActions.connect(pageApi.api);
  await act(async () => {
    await Promise.resolve();
  });
  act(() => requests.forEach((request) => pageApi.emit('approvals.requested', request)));
  return screen.findByRole('dialog');
}

const words = {
  en: {
    legend: 'Let the MCP server ‘github’ reach api.github.com:443',
    once: 'For this request only',
    always: 'Always for this server (listed in Settings → MCP servers)',
    server: 'MCP server',
    approve: 'Approve',
  },
  ru: {
    legend: 'Разрешить MCP-серверу «github» обращаться к api.github.com:443',
    once: 'Только для этого запроса',
    always: 'Всегда для этого сервера (список в Настройки → MCP-серверы)',
    server: 'MCP-сервер',
    approve: 'Одобрить',
  },
  zh: {
    legend: '允许 MCP 服务器“github”访问 api.github.com:443',
    once: '仅限此次请求',
    always: '对此服务器始终允许（列在 设置 → MCP 服务器 中）',
    server: 'MCP 服务器',
    approve: '批准',
  },
} as const;

describe('an MCP server’s host on the approval card', () => {
  it.each(['en', 'ru', 'zh'] as const)('names the server and host, offers once or always (%s)', async (locale) => {
    const said = words[locale];
    const [once, always] = [serverHost(), serverHost()];
    const dialog = await showDialog(locale, once, always);
    expect(within(dialog).getByRole('group', { name: said.legend })).toBeTruthy();
    expect(within(dialog).getByText(said.server)).toBeTruthy();
    expect(within(dialog).getByTestId('approval-server').textContent).toBe('github');
    expect(within(dialog).getByTestId('approval-host').textContent).toBe('api.github.com:443');
    // Nothing runs and nothing is written: no "what would happen" saying it again.
    expect(dialog.querySelector('.approval-operation')).toBeNull();
    // No "for the rest of this conversation": a server's grants are its own, not a conversation's.
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.parentElement?.textContent),
    ).toEqual([said.once, said.always]);
    expect(within(dialog).getByRole('radio', { name: said.once })).toHaveProperty('checked', true);
    await userEvent.click(within(dialog).getByRole('button', { name: said.approve }));
    await userEvent.click(within(dialog).getByRole('radio', { name: said.always }));
    await userEvent.click(within(dialog).getByRole('button', { name: said.approve }));
    expect(answers()).toEqual([
      { id: once.id, decision: 'approve', allowForConversation: false },
      { id: always.id, decision: 'approve', allowForConversation: false, allowForWorkspace: true },
    ]);
  });
});
