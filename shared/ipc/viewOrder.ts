/**
 * Views the core numbers as it computes them (`seq`, a count that only grows for the whole core
 * process). A window asks for a view over one connection and hears the same view's change events
 * over another, so an answer computed before an event can arrive after it; the window keeps
 * whichever was computed last. A view without a number (an older core, the signed-out default)
 * is never called older, and any view replaces one without a number.
 */
export interface NumberedView {
  seq?: number | undefined;
}

let viewsComputed = 0;

/**
 * The next number for a view the core computes (sync line, sign-in status, checks): one count
 * for the whole process, so numbers only grow, whichever view they stamp.
 */
export function nextViewSeq(): number {
  return ++viewsComputed;
}

/** Whether `incoming` was computed before `current` (so must not replace it). */
export function isOlderView(incoming: NumberedView, current: NumberedView | undefined): boolean {
  return current?.seq !== undefined && incoming.seq !== undefined && incoming.seq < current.seq;
}

/**
 * The same view without its number. Numbers count within one core process: once the connection
 * to the core is lost, the next answer may come from a restarted core counting from 1 again, so
 * what the window holds must not be called newer than it.
 */
export function unnumbered<T extends NumberedView>(view: T): T;
export function unnumbered<T extends NumberedView>(view: T | undefined): T | undefined;
export function unnumbered<T extends NumberedView>(view: T | undefined): T | undefined {
  if (view?.seq === undefined) return view;
  const { seq: _seq, ...rest } = view;
  return rest as T;
}

/**
 * `emit`, called only when what a view says changed: the same view with a new number is not a
 * change, so listeners are not woken for nothing (the checks, addresses and logins publishers).
 */
export function emitWhenChanged<T extends NumberedView>(emit: (view: T) => void): (view: T) => void {
  let last: string | undefined;
  return (view) => {
    const key = JSON.stringify({ ...view, seq: undefined });
    if (key === last) return;
    last = key;
    emit(view);
  };
}
