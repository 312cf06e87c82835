import { useEffect, useRef, useState } from 'react';

/** Within this many pixels of the end counts as "at the bottom" (sub-pixel scrolling, a nudge). */
const BOTTOM_SLACK_PX = 48;

/**
 * Keeps a scroll container at its end while its content grows (a streaming reply), until the user
 * scrolls up; scrolling back to the end (or `scrollToEnd`) re-attaches it. Attach `scrollerRef` to
 * the scrolling element and `contentRef` to the element whose height grows: growth is noticed by a
 * ResizeObserver, so it does not matter which render (or which scroll handler) ran first.
 */
export function useStickToBottom() {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const onScroll = () => {
    const element = scrollerRef.current;
    if (element === null) return;
    const next = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX;
    pinned.current = next;
    setAtBottom(next);
  };

  const scrollToEnd = () => {
    const element = scrollerRef.current;
    if (element === null) return;
    pinned.current = true;
    setAtBottom(true);
    element.scrollTop = element.scrollHeight;
  };

  useEffect(() => {
    const scroller = scrollerRef.current;
    const content = contentRef.current;
    if (scroller === null || content === null) return;
    scroller.scrollTop = scroller.scrollHeight;
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (pinned.current) scroller.scrollTop = scroller.scrollHeight;
    });
    observer.observe(content);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  return { scrollerRef, contentRef, atBottom, onScroll, scrollToEnd };
}
