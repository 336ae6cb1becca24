import DOMPurify from 'dompurify';
import { useMemo, type MouseEvent } from 'react';
import { openLink } from '../../state/breachMedia.ts';

/** What a breach description may keep: text formatting and links, nothing that runs or loads. */
const ALLOWED = { ALLOWED_TAGS: ['a', 'b', 'strong', 'i', 'em', 'p', 'br', 'ul', 'ol', 'li', 'code'], ALLOWED_ATTR: ['href'] };

/** The catalog's HTML, sanitized; only http(s) links are kept. */
export function sanitizeDescription(html: string): string {
  const clean = DOMPurify.sanitize(html, { ...ALLOWED, ALLOWED_URI_REGEXP: /^https?:/i, RETURN_DOM_FRAGMENT: true });
  for (const link of clean.querySelectorAll('a')) {
    if (!/^https?:/i.test(link.getAttribute('href') ?? '')) link.removeAttribute('href');
  }
  const holder = document.createElement('div');
  holder.append(clean);
  return holder.innerHTML;
}

/**
 * A breach's description from the details feed, as sanitized HTML (DOMPurify). Links open in
 * the system browser through the core, never inside the app.
 */
export function BreachDescription({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeDescription(html), [html]);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest('a');
    if (!link) return;
    event.preventDefault();
    const href = link.getAttribute('href');
    if (href) void openLink(href);
  };
  if (!clean.trim()) return null;
  // Sanitized above by DOMPurify with a closed allow-list.
  return <div className="breach-description" onClick={onClick} dangerouslySetInnerHTML={{ __html: clean }} />;
}
