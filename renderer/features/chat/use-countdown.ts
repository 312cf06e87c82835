import { useEffect, useState } from 'react';

/** Whole seconds left until `deadline` (ms since epoch), ticking while it runs; 0 once passed. */
export function useCountdown(deadline: number | null): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));
}
