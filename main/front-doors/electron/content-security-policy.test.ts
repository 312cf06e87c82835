import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HeadersReceivedResponse, OnHeadersReceivedListenerDetails } from 'electron';
import { describe, expect, it } from 'vitest';
import { pageDirectives } from '../../../shared/content-security-policy';
import {
  contentSecurityPolicy,
  installContentSecurityPolicy,
  withContentSecurityPolicy,
} from './content-security-policy';

const directives = (policy: string) =>
  policy
    .split(';')
    .map((directive) => directive.trim().replace(/\s+/g, ' '))
    .filter((directive) => directive !== '');

describe('the Content-Security-Policy header', () => {
  it("repeats the renderer's meta tag exactly, adding only header-only directives", async () => {
    const html = await readFile(join(import.meta.dirname, '..', '..', '..', 'renderer', 'index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html)?.[1];
    expect(meta, 'renderer/index.html has a CSP meta tag').toBeDefined();
    expect(directives(meta ?? '')).toEqual([...pageDirectives]);
    expect(directives(contentSecurityPolicy)).toEqual([...pageDirectives, "frame-ancestors 'none'"]);
  });

  it('lets the desktop page open no WebSocket or other connection beyond its own origin', () => {
    expect(contentSecurityPolicy).not.toMatch(/ws:|wss:|\*/);
    expect(directives(contentSecurityPolicy)).toContain("connect-src 'self'");
  });

  it('never allows inline or evaluated script, plugins or foreign frames', () => {
    expect(contentSecurityPolicy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(directives(contentSecurityPolicy)).toEqual(
      expect.arrayContaining(["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]),
    );
  });

  it('is added to document responses and keeps any policy already there', () => {
    const details = (
      resourceType: OnHeadersReceivedListenerDetails['resourceType'],
      headers?: Record<string, string[]>,
    ) => ({ resourceType, responseHeaders: headers }) as OnHeadersReceivedListenerDetails;
    expect(withContentSecurityPolicy(details('mainFrame'))).toEqual({
      responseHeaders: { 'Content-Security-Policy': [contentSecurityPolicy] },
    });
    expect(
      withContentSecurityPolicy(
        details('subFrame', { 'content-security-policy': ["default-src 'none'"], 'x-a': ['1'] }),
      ),
    ).toEqual({
      responseHeaders: { 'content-security-policy': ["default-src 'none'", contentSecurityPolicy], 'x-a': ['1'] },
    });
    expect(withContentSecurityPolicy(details('script', { 'x-a': ['1'] }))).toEqual({});
  });

  it('is installed on the session web request hook', () => {
    let listener:
      | ((details: OnHeadersReceivedListenerDetails, callback: (response: HeadersReceivedResponse) => void) => void)
      | undefined;
    installContentSecurityPolicy({
      onHeadersReceived: (handler: typeof listener) => void (listener = handler),
    } as never);
    const responses: HeadersReceivedResponse[] = [];
    listener?.({ resourceType: 'mainFrame', responseHeaders: {} } as OnHeadersReceivedListenerDetails, (response) =>
      responses.push(response),
    );
    expect(responses).toEqual([{ responseHeaders: { 'Content-Security-Policy': [contentSecurityPolicy] } }]);
  });
});
