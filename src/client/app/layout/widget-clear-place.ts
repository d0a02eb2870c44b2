/**
 * Where the docked AI widget comes out when tapped: at the right edge, over none of the page's
 * controls. Apart from widget-position.ts: the widget waits docked on most windows, so this code
 * comes with the first tap (use-widget-placement.ts).
 */
import { clampPosition, EDGE, type Size } from './widget-position.ts';

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** More than the brought-out widget's height: the room looked for before it is shown and measured. */
export const OUT_HEIGHT_BOUND = 96;

/** How far the brought-out widget keeps from a control beside it. */
const CONTROL_GAP = 4;
const SCAN_STEP = 4;

/**
 * Brought out at the right edge, the widget must lie over none of the page's controls (buttons,
 * links, fields): the height nearest `preferredY` where its box, at `x`, misses every one of
 * `controls` (as they are on screen now), or null when the window has no such place.
 */
export function clearHeight(x: number, preferredY: number, widget: Size, viewport: Size, controls: readonly Rect[]): number | null {
  const left = x - CONTROL_GAP;
  const right = x + widget.width + CONTROL_GAP;
  const inColumn = controls.filter((rect) => rect.right > left && rect.left < right && rect.bottom > rect.top);
  const clear = (y: number) => inColumn.every((rect) => rect.bottom <= y - CONTROL_GAP || rect.top >= y + widget.height + CONTROL_GAP);
  const lowest = EDGE;
  const highest = viewport.height - widget.height - EDGE;
  if (highest < lowest) return null;
  const start = Math.min(highest, Math.max(lowest, Math.round(preferredY)));
  for (let offset = 0; start - offset >= lowest || start + offset <= highest; offset += SCAN_STEP) {
    if (start + offset <= highest && clear(start + offset)) return start + offset;
    if (start - offset >= lowest && clear(start - offset)) return start - offset;
  }
  return null;
}

/** What a reader may press on screen now (the widget's own controls aside), as boxes. */
function controlBoxes(widget: HTMLElement | null): Rect[] {
  const boxes: Rect[] = [];
  for (const control of document.querySelectorAll('a[href], button, input, textarea, select, [role="button"], [tabindex]:not([tabindex="-1"])')) {
    if (widget?.contains(control)) continue;
    const box = control.getBoundingClientRect();
    if (box.width > 1 && box.height > 1 && box.bottom > 0 && box.top < window.innerHeight) boxes.push(box);
  }
  return boxes;
}

/** The height where the whole widget, at the right edge of `view`, lies over no control; null when there is none. */
export function clearOutHeight(widget: HTMLElement | null, preferredY: number, size: Size, view: Size): number | null {
  return clearHeight(clampPosition({ x: Infinity, y: 0 }, size, view).x, preferredY, size, view, controlBoxes(widget));
}
