import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * One line of text in a slot of fixed size (the status bar, the queued-changes notice): cut with
 * "…" when it does not fit, and then readable whole. While cut, the line takes keyboard focus, and
 * on focus or hover a tooltip shows the whole text (WCAG 1.4.13: it stays while hovered, Escape
 * hides it), the line's accessible description while shown. The line's own text is whole for
 * screen readers already ("…" is only drawn), so the tooltip exists only while shown: the page
 * holds each message once. A line that fits is plain text: no tab stop, no tooltip.
 *
 * `text` is the whole message in words (the tooltip's); `children`, when given, is how the line
 * shows it (with emphasis), and must say the same.
 */
export function ClippedText({ text, children, className }: { text: string; children?: ReactNode; className?: string }) {
  const line = useRef<HTMLSpanElement>(null);
  const [clipped, setClipped] = useState(false);
  // Where the tooltip shows (fixed, so no `overflow: hidden` around the line cuts it too).
  const [at, setAt] = useState<{ left: number; top: number }>();
  const id = useId();

  useLayoutEffect(() => {
    const element = line.current;
    if (!element) return;
    const measure = () => setClipped(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text]);

  const show = () => {
    const rect = line.current?.getBoundingClientRect();
    if (clipped && rect) setAt({ left: Math.max(8, Math.min(rect.left, window.innerWidth - 488)), top: rect.bottom + 6 });
  };
  const hide = () => setAt(undefined);

  return (
    <span className={className ? `clipped ${className}` : 'clipped'} onMouseEnter={show} onMouseLeave={hide}>
      <span
        ref={line}
        className="truncate clipped-line"
        tabIndex={clipped ? 0 : undefined}
        aria-describedby={clipped && at ? id : undefined}
        onFocus={show}
        onBlur={hide}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && at) {
            event.stopPropagation();
            hide();
          }
        }}
      >
        {children ?? text}
      </span>
      {clipped && at ? (
        <span role="tooltip" id={id} className="clipped-tooltip" style={{ left: at.left, top: at.top }}>
          {text}
        </span>
      ) : null}
    </span>
  );
}
