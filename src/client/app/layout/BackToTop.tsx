import { useEffect, useState } from 'react';
import { prefersReducedMotion } from '../../platform/motion.ts';
import { IconArrowUp } from '../../ui/icons.tsx';

/** Shown after this much scrolling. */
const SHOW_AFTER_PX = 400;

/** PC: the return-to-top button, once the page is scrolled down. */
export function BackToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setVisible(window.scrollY > SHOW_AFTER_PX));
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      className="back-to-top"
      aria-label="回到顶部"
      onClick={() => window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' })}
    >
      <IconArrowUp size={20} />
    </button>
  );
}
