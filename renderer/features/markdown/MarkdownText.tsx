import { memo, useMemo } from 'react';
import type { ComponentProps } from 'react';
import Markdown from 'react-markdown';
import type { Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useT } from '../../i18n/i18n';
import { CodeBlock } from './CodeBlock';
import { splitMarkdownBlocks } from './markdown-blocks';
import './markdown.css';

interface HastLike {
  readonly type: string;
  readonly value?: string;
  readonly tagName?: string;
  readonly properties?: Record<string, unknown>;
  readonly children?: readonly HastLike[];
}

const textOf = (node: HastLike): string =>
  node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(textOf).join('');

/** The language from a code element's class list (`language-ts`), or ''. */
function languageOf(code: HastLike | undefined): string {
  const classes = code?.properties?.['className'];
  const list = Array.isArray(classes) ? classes : [];
  const match = list.map(String).find((name) => name.startsWith('language-'));
  return match === undefined ? '' : match.slice('language-'.length);
}

function ExternalLink({ href, children }: ComponentProps<'a'>) {
  // Links leave the app: the desktop shell opens target=_blank in the system browser; no opener, no referrer.
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * Remote images would be blocked by the Content-Security-Policy (and would tell a server the reply was
 * read): show them as links instead.
 */
function ImageAsLink({ src, alt }: ComponentProps<'img'>) {
  const t = useT();
  const label = t('markdown.image', { name: alt === undefined || alt === '' ? String(src ?? '') : alt });
  if (typeof src !== 'string' || src === '') return <span>{label}</span>;
  return (
    <a href={src} target="_blank" rel="noopener noreferrer" className="markdown-image-link">
      {label}
    </a>
  );
}

const components: Components = {
  a: ExternalLink,
  img: ImageAsLink,
  pre({ node }) {
    const code = (node as HastLike | undefined)?.children?.find((child) => child.tagName === 'code');
    const text = code === undefined ? '' : textOf(code);
    // The parser keeps the fence's closing newline; the copy button should not.
    return <CodeBlock code={text.endsWith('\n') ? text.slice(0, -1) : text} language={languageOf(code)} />;
  },
};

const remarkPlugins = [remarkGfm];

/** One block, memoized: while a reply streams, only its last block's text changes. */
const MarkdownBlock = memo(function MarkdownBlock({ source }: { readonly source: string }) {
  // Raw HTML in the text stays text (react-markdown never renders it without rehype-raw); URLs pass
  // its default transform, which drops javascript: and other unsafe schemes.
  return (
    <Markdown remarkPlugins={remarkPlugins} components={components}>
      {source}
    </Markdown>
  );
});

/** Assistant text rendered as GitHub-flavoured Markdown, safe to feed with streamed text. */
export const MarkdownText = memo(function MarkdownText({ text }: { readonly text: string }) {
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text]);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        // Blocks only ever grow at the end, so an index is a stable identity here.
        <MarkdownBlock key={index} source={block} />
      ))}
    </div>
  );
});
