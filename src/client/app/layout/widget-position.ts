/** Where the AI widget starts and how far it may go (230 px from the right, 110 + 200 px from the bottom). */
import { AI_WIDGET_OFFSET_X, AI_WIDGET_OFFSET_Y, PAGE_WIDTH_PX } from '#shared/constants.ts';

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The margin the widget keeps from the window's edges. */
export const EDGE = 8;

/** Keeps the widget fully inside the viewport with a small margin. */
export function clampPosition(point: Point, widget: Size, viewport: Size): Point {
  const maxX = Math.max(EDGE, viewport.width - widget.width - EDGE);
  const maxY = Math.max(EDGE, viewport.height - widget.height - EDGE);
  return {
    x: Math.round(Math.min(maxX, Math.max(EDGE, point.x))),
    y: Math.round(Math.min(maxY, Math.max(EDGE, point.y))),
  };
}

/** The first position: 230 px from the right edge, 110 + 200 px from the bottom edge. */
export function initialPosition(widget: Size, viewport: Size): Point {
  return clampPosition({ x: viewport.width - AI_WIDGET_OFFSET_X, y: viewport.height - AI_WIDGET_OFFSET_Y }, widget, viewport);
}

/**
 * Docked (a phone, or a window without room beside the page), the widget waits at the right edge,
 * showing only DOCK_VISIBLE_PX: the page has 16 px of padding there, so it never covers the column.
 */
export const DOCK_VISIBLE_PX = 16;

/**
 * On PC the docked widget shows this much more: an overlay scrollbar (macOS, and Chromium's own)
 * lies over the window's last 15 px and takes the pointer there, so 16 px at the edge could
 * hardly be clicked. The 1200 px page's margin and padding leave room for it.
 */
export const PC_DOCK_VISIBLE_PX = DOCK_VISIBLE_PX + 16;

/** The docked place at height `y` (kept inside the viewport), `visible` px of it showing. */
export function dockedPosition(y: number, widget: Size, viewport: Size, visible = DOCK_VISIBLE_PX): Point {
  return { x: viewport.width - visible, y: clampPosition({ x: 0, y }, widget, viewport).y };
}

/**
 * Whether a window `width` wide has room for the whole widget at its first place in the margin
 * beside the 1200 px page: SPEC's offsets are from the window's edge, and the page's controls
 * must never be under it. Narrower, it waits docked at the edge, as on a phone.
 */
export function roomBesideContent(width: number): boolean {
  return width - AI_WIDGET_OFFSET_X >= (width + PAGE_WIDTH_PX) / 2 + EDGE;
}
