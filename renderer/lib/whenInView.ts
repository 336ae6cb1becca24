/**
 * Runs `run` once any part of `element` is on screen in the area that scrolls it (an
 * IntersectionObserver rooted at its scrolling ancestor): for work only a person who scrolls
 * there needs, such as a chart below the fold. Where the browser has no IntersectionObserver
 * (jsdom) it runs at once. Returns a function that cancels it.
 */
export function whenInView(element: Element, run: () => void): () => void {
  if (typeof IntersectionObserver !== 'function') {
    run();
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      run();
    },
    { root: scrollingAncestor(element) },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

function scrollingAncestor(element: Element): Element | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return null;
}
