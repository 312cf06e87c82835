import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MarkdownText } from './MarkdownText';

describe('MarkdownText', () => {
  it('renders GitHub-flavoured Markdown: headings, emphasis, tables, task lists', () => {
    const { container } = render(
      <MarkdownText text={'# Plan\n\nDo **this** ~~not that~~.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done'} />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Plan' })).toBeTruthy();
    expect(container.querySelector('strong')?.textContent).toBe('this');
    expect(container.querySelector('del')?.textContent).toBe('not that');
    expect(screen.getByRole('table')).toBeTruthy();
    expect(screen.getByRole('checkbox')).toHaveProperty('checked', true);
  });

  it('shows raw HTML as text and never runs it', () => {
    const { container } = render(
      <MarkdownText text={'Hi <img src=x onerror="alert(1)"> there\n\n<script>alert(2)</script>'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('opens links outside the app without an opener, and drops javascript: URLs', () => {
    render(<MarkdownText text={'[docs](https://example.com/a) and [bad](javascript:alert(1))'} />);
    const docs = screen.getByRole('link', { name: 'docs' });
    expect(docs.getAttribute('href')).toBe('https://example.com/a');
    expect(docs.getAttribute('target')).toBe('_blank');
    expect(docs.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.queryByRole('link', { name: 'bad' })?.getAttribute('href') ?? '').not.toContain('javascript');
  });

  it('turns images into links instead of loading them', () => {
    const { container } = render(<MarkdownText text={'![a chart](https://example.com/chart.png)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: '[image: a chart]' }).getAttribute('href')).toBe(
      'https://example.com/chart.png',
    );
  });

  it('renders fenced code with its language, a copy button, and highlighting once the grammars load', async () => {
    const { container } = render(<MarkdownText text={'```ts\nconst answer: number = 42;\n```'} />);
    expect(screen.getByText('ts')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
    expect(container.querySelector('pre code')?.textContent).toBe('const answer: number = 42;');
    await waitFor(() => expect(container.querySelector('code.hljs .hljs-keyword')?.textContent).toBe('const'));
    expect(container.querySelector('pre code')?.textContent).toBe('const answer: number = 42;');
  });

  it('leaves code in an unknown language plain', async () => {
    const { container } = render(<MarkdownText text={'```klingon\nQapla!\n```\n\n```ts\nlet x = 1\n```'} />);
    await waitFor(() => expect(container.querySelector('code.language-ts')).not.toBeNull());
    expect(container.querySelectorAll('code.hljs')).toHaveLength(1);
    expect(screen.getByText('Qapla!')).toBeTruthy();
  });

  it('renders a reply that is still streaming (an unclosed fence) and its completion the same way', () => {
    const { container, rerender } = render(<MarkdownText text={'Intro\n\n```py\nprint(1)'} />);
    expect(container.querySelector('pre code')?.textContent).toBe('print(1)');
    rerender(<MarkdownText text={'Intro\n\n```py\nprint(1)\n```\n\nDone.'} />);
    expect(container.querySelector('pre code')?.textContent).toBe('print(1)');
    expect(screen.getByText('Done.')).toBeTruthy();
  });
});
