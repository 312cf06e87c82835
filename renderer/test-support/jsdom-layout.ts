/**
 * jsdom does no layout: every element measures 0×0, so a virtualized list shows no rows. This gives
 * elements matching `selector` the size a browser would, for the virtualizer to fill.
 */
export function giveLayout(selector: string, width: number, height: number): void {
  // The original lives on Element.prototype; the override shadows it on HTMLElement.prototype.
  HTMLElement.prototype.getBoundingClientRect = function getBoundingClientRect(this: HTMLElement) {
    return this.matches(selector)
      ? new DOMRect(0, 0, width, height)
      : Element.prototype.getBoundingClientRect.call(this);
  };
  // TanStack Virtual reads clientWidth/clientHeight; others read offset sizes or the bounding box.
  for (const [property, size] of [
    ['clientHeight', height],
    ['clientWidth', width],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, property, {
      configurable: true,
      get(this: HTMLElement) {
        return this.matches(selector) ? size : 0;
      },
    });
  }
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.matches(selector) ? height : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.matches(selector) ? width : 0;
    },
  });
}
