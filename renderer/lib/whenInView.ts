/**
 * Runs `run` once any part of `element` is on screen: for work only a person who scrolls there
 * needs, such as a chart below the fold. The observer's root is the viewport, and the browser
 * clips the element by every scrolling ancestor on the way (W3C Intersection Observer, "compute
 * the intersection"), so an element scrolled out of the `<main>` that holds it is not in view;
 * finding that ancestor here instead (getComputedStyle up the tree) made the browser compute
 * the new page's style in the middle of its first render. Where the browser has no
 * IntersectionObserver (jsdom) it runs at once. Returns a function that cancels it.
 */
export function whenInView(element: Element, run: () => void): () => void {
  if (typeof IntersectionObserver !== 'function') {
    run();
    return () => {};
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    run();
  });
  observer.observe(element);
  return () => observer.disconnect();
}
