import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** The little of linkedom's document used here (Node's types carry no DOM). */
interface ElementLike {
  setAttribute(name: string, value: string): void;
  prepend(child: ElementLike): void;
  readonly innerHTML: string;
}
interface DocumentLike {
  readonly title: string;
  readonly head: ElementLike | null;
  readonly body: ElementLike | null;
  readonly documentElement: ElementLike;
  querySelector(selector: string): ElementLike | null;
  createElement(name: string): ElementLike;
}

export interface ReadablePage {
  readonly title: string;
  readonly markdown: string;
}

/** Headings as `#`, code as fenced blocks: what models read best. */
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
// What a reader never sees: scripts, styles, forms' innards.
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed']);

/**
 * A web page as Markdown: the article Readability finds (navigation, footers and ads left out),
 * or the whole body when it finds none (a short page, a listing). Links are made absolute against
 * the page's own <base> or its final URL, so the model can fetch them next.
 */
export function readablePage(html: string, finalUrl: string): ReadablePage {
  // linkedom needs the frame: a bare fragment (`<p>hi</p>`) would otherwise lose its body.
  const framed = /<body[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`;
  const document = (parseHTML(framed) as unknown as { readonly document: DocumentLike }).document;
  if (document.querySelector('base[href]') === null) {
    const base = document.createElement('base');
    base.setAttribute('href', finalUrl);
    (document.head ?? document.documentElement).prepend(base);
  }
  const fallbackTitle = document.title.trim();
  const body = document.body?.innerHTML ?? framed;
  let article: { readonly title?: string | null | undefined; readonly content?: string | null | undefined } | null;
  try {
    // Readability takes the DOM interface; linkedom's document implements what it uses.
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  } catch {
    article = null;
  }
  const markdown = (fragment: string) =>
    turndown
      .turndown(fragment)
      .replace(/^(\s*)([-*]|\d+\.)\s{2,}/gm, '$1$2 ')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  // A page too short for Readability to call an article (a note, a listing) is shown whole.
  const fromArticle = article?.content === undefined || article.content === null ? '' : markdown(article.content);
  return {
    title: (article?.title ?? '').trim() || fallbackTitle,
    markdown: fromArticle === '' ? markdown(body) : fromArticle,
  };
}
