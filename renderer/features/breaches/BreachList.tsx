import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { forwardRef, useCallback, useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent } from 'react';
import type { BreachRow } from '../../../shared/ipc/views.ts';
import { BreachRowView, ROW_HEIGHT } from './BreachRow.tsx';

export interface BreachListHandle {
  focus(): void;
}

interface BreachListProps {
  rows: BreachRow[];
  /**
   * How many rows the list has when `rows` is only its beginning (a first load draws the first
   * rows while the rest is on its way): the scroll height and `aria-setsize` are the whole
   * list's, and rows not here yet draw as placeholders.
   */
  total?: number;
  selectedId?: string;
  onOpen(id: string): void;
  label: string;
  /** Changes when the rows answer different filters: the selected row is brought into view again. */
  revealKey?: string;
}

/**
 * A listbox with `aria-activedescendant`: focus stays on the list while arrows move the active
 * row, which suits virtualization (rows come and go; the focused element never does).
 */
export const BreachList = forwardRef<BreachListHandle, BreachListProps>(function BreachList({ rows, total, selectedId, onOpen, label, revealKey = '' }, ref) {
  const count = Math.max(rows.length, total ?? 0);
  const scroller = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const revealed = useRef<string | undefined>(undefined);
  const [activeId, setActiveId] = useState<string | undefined>(selectedId);
  const indexOf = useCallback((id: string | undefined) => (id === undefined ? -1 : rows.findIndex((row) => row.breach.id === id)), [rows]);
  const activeIndex = Math.max(0, indexOf(activeId));

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    getItemKey: (index) => rows[index]?.breach.id ?? index,
    // The active row stays rendered even when scrolled away, so aria-activedescendant always
    // points at an element that exists.
    rangeExtractor: useCallback(
      (range: Range) => {
        const indexes = defaultRangeExtractor(range);
        return indexes.includes(activeIndex) || activeIndex >= rows.length ? indexes : [...indexes, activeIndex].sort((a, b) => a - b);
      },
      [activeIndex, rows.length],
    ),
  });

  useImperativeHandle(ref, () => ({ focus: () => scroller.current?.focus() }), []);

  // Opening a breach from elsewhere (a notification, the URL) makes it the active row too, and
  // brings it into view once, when it first appears in the rows.
  useEffect(() => {
    if (selectedId === undefined) return;
    setActiveId(selectedId);
    const index = indexOf(selectedId);
    const key = `${selectedId}\n${revealKey}`;
    if (index !== -1 && revealed.current !== key) {
      // After layout: on first mount the scroller has no size yet to centre within.
      const frame = requestAnimationFrame(() => {
        revealed.current = key;
        virtualizer.scrollToIndex(index, { align: 'center' });
      });
      return () => cancelAnimationFrame(frame);
    }
  }, [selectedId, revealKey, indexOf, virtualizer]);

  const move = (index: number) => {
    const clamped = Math.min(rows.length - 1, Math.max(0, index));
    const row = rows[clamped];
    if (!row) return;
    setActiveId(row.breach.id);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  const pick = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return;
      setActiveId(row.breach.id);
      // Picked here, so already in view: no scrolling under the pointer.
      revealed.current = `${row.breach.id}\n${revealKey}`;
      onOpen(row.breach.id);
    },
    [rows, onOpen, revealKey],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 5) / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(activeIndex + (indexOf(activeId) === -1 ? 0 : 1)),
      ArrowUp: () => move(activeIndex - 1),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      PageDown: () => move(activeIndex + page),
      PageUp: () => move(activeIndex - page),
      Enter: () => pick(activeIndex),
      ' ': () => pick(activeIndex),
    };
    const action = keys[event.key];
    if (action && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      action();
    }
  };

  const rowId = (index: number) => `${baseId}-row-${index}`;
  const activeRow = rows[activeIndex];

  return (
    <div
      ref={scroller}
      className="breach-list"
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={rows.length > 0 && activeRow ? rowId(activeIndex) : undefined}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (indexOf(activeId) === -1 && rows[0]) setActiveId(rows[0].breach.id);
      }}
    >
      <div className="breach-list-sizer" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row)
            return (
              <div key={item.key} className="breach-row breach-row-placeholder" aria-hidden="true" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                <span className="skeleton-line" />
                <span className="skeleton-line" />
                <span className="skeleton-line" />
              </div>
            );
          return (
            <BreachRowView
              key={item.key}
              row={row}
              id={rowId(item.index)}
              index={item.index}
              count={count}
              top={item.start}
              active={item.index === activeIndex && indexOf(activeId) !== -1}
              selected={row.breach.id === selectedId}
              onPick={pick}
            />
          );
        })}
      </div>
    </div>
  );
});
