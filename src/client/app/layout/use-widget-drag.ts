import { useRef, type PointerEvent } from 'react';
import type { Point } from './widget-position.ts';

/** A press that travels less than this is a click, not a drag. */
const DRAG_THRESHOLD_PX = 5;

/**
 * Dragging the widget with mouse, pen or touch (pointer events), from anywhere on it but its
 * close button, from `position` (null before its first placement: no drag then) through `moveTo`.
 * Returns the handlers for the widget's root, and `afterDrag()`, which tells a click handler whether
 * the click only ended a drag (and so must do nothing), once.
 */
export function useWidgetDrag(position: Point | null, moveTo: (to: Point) => void) {
  const drag = useRef<{ id: number; startX: number; startY: number; origin: Point; moved: boolean } | null>(null);
  const suppressClick = useRef(false);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || !position) return;
    if ((event.target as HTMLElement).closest('.ai-widget__close')) return;
    drag.current = { id: event.pointerId, startX: event.clientX, startY: event.clientY, origin: position, moved: false };
    suppressClick.current = false;
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    const dx = event.clientX - d.startX;
    const dy = event.clientY - d.startY;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    if (!d.moved) {
      d.moved = true;
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    moveTo({ x: d.origin.x + dx, y: d.origin.y + dy });
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    drag.current = null;
    if (d.moved) {
      suppressClick.current = true;
      if (event.currentTarget.hasPointerCapture(event.pointerId)) {
        event.currentTarget.releasePointerCapture(event.pointerId);
      }
    }
  };
  const afterDrag = () => {
    const dragged = suppressClick.current;
    suppressClick.current = false;
    return dragged;
  };

  return [{ onPointerDown, onPointerMove, onPointerUp: onPointerEnd, onPointerCancel: onPointerEnd }, afterDrag] as const;
}
