import { useState } from 'react';
import { clampZoom } from './gallery-store.ts';

/** How the shown image is zoomed and panned. */
export interface ImageView {
  scale: number;
  x: number;
  y: number;
}
export const UNZOOMED: ImageView = { scale: 1, x: 0, y: 0 };

/** Double tap or double click: back to unzoomed, or 2x centred on the point (relative to the gallery's box). */
export function toggledView(view: ImageView, point: { x: number; y: number }, box: DOMRect | undefined): ImageView {
  if (view.scale > 1) return UNZOOMED;
  const cx = box ? point.x - box.left - box.width / 2 : 0;
  const cy = box ? point.y - box.top - box.height / 2 : 0;
  return { scale: 2, x: -cx, y: -cy };
}

/** One wheel step zooms by 15 %, in or out; at 1x the pan is dropped too. */
export function wheeledView(view: ImageView, deltaY: number): ImageView {
  const scale = clampZoom(view.scale * (deltaY < 0 ? 1.15 : 1 / 1.15));
  return scale === 1 ? UNZOOMED : { ...view, scale };
}

export type SetImageView = (next: ImageView | ((view: ImageView) => ImageView)) => void;

/**
 * The zoom of the image under `key`: a new key (another image, a new opening) starts unzoomed,
 * without an effect resetting it after the first paint.
 */
export function useImageView(key: string): [ImageView, SetImageView] {
  const [zoom, setZoom] = useState<{ key: string; view: ImageView }>({ key, view: UNZOOMED });
  const view = zoom.key === key ? zoom.view : UNZOOMED;
  const setView: SetImageView = (next) =>
    setZoom((z) => {
      const current = z.key === key ? z.view : UNZOOMED;
      return { key, view: typeof next === 'function' ? next(current) : next };
    });
  return [view, setView];
}
