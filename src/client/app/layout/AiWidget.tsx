import { useRef, useState } from 'react';
import { IconSparkle } from '../../ui/icons.tsx';
import { LazyLayer, lazyComponent } from '../../ui/LazyLayer.tsx';
import { openAiAssistant, useAiWidgetStore } from './ai-widget-store.ts';
import { useWidgetDrag } from './use-widget-drag.ts';
import { useWidgetPlacement } from './use-widget-placement.ts';
import type { Point } from './widget-position.ts';
import './ai-widget.css';

// The whole promo shows beside a wide page, or brought out from the edge: on most windows it
// waits docked, so its code comes with its first showing.
const AiWidgetPanel = lazyComponent(() => import('./AiWidgetPanel.tsx'));

/**
 * The floating AI assistant promo. It never covers the page's controls: on a PC window with room
 * beside the 1200 px page it starts there, 230 px from the right and 110 + 200 px from the bottom;
 * drag it anywhere with mouse, pen or touch (pointer events), or move it with the arrow keys; a
 * click without dragging opens the AI page in a new window; the close button hides it for good. On
 * a phone, and on a window without that room, it waits docked at the right edge, mostly hidden, at
 * the same height (a drag moves it up and down): a tap brings it out whole, at the nearest height
 * where it lies over no button, link or field (a window with no such place opens the AI page at
 * once), and it goes back when the page scrolls or is tapped elsewhere.
 */
export default function AiWidget() {
  const hidden = useAiWidgetStore((s) => s.hidden);
  const close = useAiWidgetStore((s) => s.close);
  const rootRef = useRef<HTMLDivElement>(null);
  // The panel's size is what places it: placed once its code is in.
  const [panelShown, setPanelShown] = useState(false);
  const { position, moveTo, docked, out, setOut, bringOut } = useWidgetPlacement(rootRef, panelShown);
  const [handlers, afterDrag] = useWidgetDrag(position, moveTo);

  if (hidden) return null;

  const onOpen = () => {
    if (!afterDrag()) openAiAssistant();
  };
  const moveBy = (step: Point) => {
    if (position) moveTo({ x: position.x + step.x, y: position.y + step.y });
  };

  return (
    <div
      ref={rootRef}
      className={`ai-widget${docked ? ' ai-widget--docked' : ''}`}
      style={position ? { transform: `translate3d(${position.x}px, ${position.y}px, 0)` } : { visibility: 'hidden' }}
      {...handlers}
      data-testid="ai-widget"
    >
      {docked ? (
        <button type="button" className="ai-widget__tab" aria-expanded="false" onClick={() => afterDrag() || bringOut()}>
          <span className="ai-widget__icon" aria-hidden="true">
            <IconSparkle size={18} />
          </span>
          <span className="visually-hidden">AI助手</span>
        </button>
      ) : (
        <LazyLayer onError={out ? () => setOut(false) : undefined}>
          <AiWidgetPanel onOpen={onOpen} onMove={moveBy} onClose={close} onShown={setPanelShown} />
        </LazyLayer>
      )}
    </div>
  );
}
