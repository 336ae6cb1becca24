import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * The banners (sign-in needed, connection lost, service notice, new breaches) float over the
 * bottom corner of the content instead of taking rows above it: one appearing or going never
 * moves what is under the pointer, and the list keeps its height. The stack's height is given to
 * the shell as `--banner-stack-height`, so the scrolling areas can scroll their last lines out
 * from under it (more room at their end; nothing on screen moves).
 */
export function BannerStack({ children }: { children: ReactNode }) {
  const stack = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = stack.current;
    const host = element?.parentElement;
    if (!element || !host) return;
    // The observer's first answer comes after the first layout and before that frame is painted:
    // reading the height here instead (offsetHeight) would lay out the whole new page in the
    // middle of React's commit, and again once this property changed it. No banner: no property
    // (the style sheets fall back to 0px), so an empty stack changes nothing about the page.
    const observer = new ResizeObserver(([entry]) => {
      const height = entry?.borderBoxSize[0]?.blockSize ?? element.offsetHeight;
      if (height > 0) host.style.setProperty('--banner-stack-height', `${Math.round(height) + 24}px`);
      else host.style.removeProperty('--banner-stack-height');
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      host.style.removeProperty('--banner-stack-height');
    };
  }, []);
  return (
    <div ref={stack} className="banner-stack">
      {children}
    </div>
  );
}
