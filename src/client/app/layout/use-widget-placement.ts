import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import { loadChunk } from '../../lib/chunk.ts';
import { useLayoutStore } from '../../platform/layout-store.ts';
import { openAiAssistant, useAiWidgetStore } from './ai-widget-store.ts';
import type * as ClearPlace from './widget-clear-place.ts';
import { clampPosition, DOCK_VISIBLE_PX, dockedPosition, initialPosition, PC_DOCK_VISIBLE_PX, roomBesideContent, type Point } from './widget-position.ts';

/** Where a brought-out widget may be: loaded with the first tap on the docked one, before it comes out. */
let clearPlace: typeof ClearPlace | undefined;

/** The window less its scroll bar, which a fixed element cannot show through. */
function viewport() {
  return { width: document.documentElement.clientWidth || window.innerWidth, height: window.innerHeight };
}

/**
 * Where the AI widget sits: anywhere beside a wide page; on a phone or a narrow window docked at
 * the right edge, or brought out whole (`bringOut`) where it covers no control, until the page
 * scrolls or is tapped elsewhere. Placed again when the window or the layout changes. `position`
 * is null until the first placement.
 */
export function useWidgetPlacement(rootRef: RefObject<HTMLDivElement | null>, panelShown: boolean) {
  const hidden = useAiWidgetStore((s) => s.hidden);
  const isMobile = useLayoutStore((s) => s.isMobile);
  const [position, setPosition] = useState<Point | null>(null);
  const [out, setOut] = useState(false);
  const [roomy, setRoomy] = useState(() => roomBesideContent(viewport().width));
  const docks = isMobile || !roomy;
  const docked = docks && !out;

  const size = () => {
    const el = rootRef.current;
    return { width: el?.offsetWidth ?? 200, height: el?.offsetHeight ?? 80 };
  };
  /** Where the widget may be: anywhere beside a wide page, else the right edge (docked or out). */
  const place = (p: Point): Point => {
    if (!docks) return clampPosition(p, size(), viewport());
    if (docked) return dockedPosition(p.y, size(), viewport(), isMobile ? DOCK_VISIBLE_PX : PC_DOCK_VISIBLE_PX);
    return clampPosition({ x: Infinity, y: clearPlace?.clearOutHeight(rootRef.current, p.y, size(), viewport()) ?? p.y }, size(), viewport());
  };
  /**
   * The dock's tab tapped: out where it covers nothing, or, with no such place (or no code to find
   * one: offline before it was ever loaded), straight to the AI page.
   */
  const bringOut = () => {
    void loadChunk(() => import('./widget-clear-place.ts')).then(
      (loaded) => {
        clearPlace = loaded;
        const y = loaded.clearOutHeight(rootRef.current, position?.y ?? 0, { width: size().width, height: loaded.OUT_HEIGHT_BOUND }, viewport());
        if (y === null) {
          openAiAssistant();
          return;
        }
        setPosition((p) => (p ? { ...p, y } : p));
        setOut(true);
      },
      openAiAssistant,
    );
  };
  /** Moves the widget to where it may be nearest `to` (a drag, the arrow keys). */
  const moveTo = (to: Point) => setPosition(place(to));

  useLayoutEffect(() => {
    if (hidden || (!docked && !panelShown)) return;
    const root = rootRef.current;
    if (!position && root && typeof ResizeObserver === 'function') {
      // The first placement waits for the browser's own layout (the widget stays invisible until
      // then): measured here, it forced a layout of the whole page in the middle of the first
      // render, on every start.
      const observer = new ResizeObserver(() => {
        observer.disconnect();
        setPosition((p) => place(p ?? initialPosition(size(), viewport())));
      });
      observer.observe(root);
      return () => observer.disconnect();
    }
    // Placed again (brought out, docked, the layout changed): before the next paint, a layout effect's job.
    setPosition((p) => place(p ?? initialPosition(size(), viewport())));
    // place() reads the layout and the docked state, which are the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hidden, docks, docked, panelShown]);

  useEffect(() => {
    if (hidden) return;
    const onResize = () => {
      setRoomy(roomBesideContent(viewport().width));
      setPosition((p) => (p ? place(p) : p));
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hidden, docks, docked]);

  useEffect(() => {
    if (!out) return;
    // Brought out from the edge: back there when the reader scrolls on or taps elsewhere.
    const back = (event: Event) => {
      if (event.type === 'pointerdown' && rootRef.current?.contains(event.target as Node)) return;
      setOut(false);
    };
    window.addEventListener('scroll', back, { passive: true });
    window.addEventListener('pointerdown', back);
    return () => {
      window.removeEventListener('scroll', back);
      window.removeEventListener('pointerdown', back);
    };
  }, [out, rootRef]);

  return { position, moveTo, docked, out, setOut, bringOut };
}

