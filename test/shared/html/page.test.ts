import { describe, expect, it } from 'vitest';
import { escapeHtml, renderPageShell } from '../../../shared/html/page.ts';

describe('renderPageShell', () => {
  it('escapes the title and keeps the body as the caller wrote it, inside <main>', () => {
    const { html } = renderPageShell({ title: '<script>alert("x")</script> & more', style: 'h1 { color: red; }', body: '<h1>Signed in</h1>' });
    expect(html).toContain('<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more</title>');
    expect(html).not.toContain('<script>');
    expect(html).toMatch(/<main>\n<h1>Signed in<\/h1>\n<\/main>/);
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
  });

  it('gives the one inline style a fresh 16-byte nonce per page', () => {
    const first = renderPageShell({ title: 't', style: 'p {}', body: '' });
    const second = renderPageShell({ title: 't', style: 'p {}', body: '' });
    expect(first.html).toContain(`<style nonce="${first.nonce}">p {}</style>`);
    expect(Buffer.from(first.nonce, 'base64')).toHaveLength(16);
    expect(first.nonce).not.toBe(second.nonce);
  });
});

describe('escapeHtml', () => {
  it('escapes every character that could end an attribute or open a tag', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
