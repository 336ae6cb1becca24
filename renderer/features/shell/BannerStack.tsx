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
    const update = () => host.style.setProperty('--banner-stack-height', `${element.offsetHeight ? element.offsetHeight + 24 : 0}px`);
    update();
    const observer = new ResizeObserver(update);
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
