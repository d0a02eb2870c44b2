import { useEffect, useState } from 'react';

/** A resend countdown: whole seconds left, and a start(seconds). Ticks once a second. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [clock, setClock] = useState({ until: 0, now: 0 });
  useEffect(() => {
    if (clock.until === 0) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setClock((c) => ({ ...c, now }));
      if (now >= clock.until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [clock.until]);
  const start = (seconds: number) => {
    const now = Date.now();
    setClock({ until: now + seconds * 1000, now });
  };
  return [Math.max(0, Math.ceil((clock.until - clock.now) / 1000)), start];
}
