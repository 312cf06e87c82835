interface CloseButtonProps {
  /** What the button closes or removes: screen readers say this, not the × itself. */
  readonly label: string;
  readonly onClick: () => void;
  /** 'icon': a bare ×, as in a notice bar; 'small': a small bordered button, as in a header or a table row. */
  readonly look?: 'icon' | 'small';
  /** Where it sits, for its own placement (e.g. on a thumbnail's corner). */
  readonly className?: string;
}

/** A × button that dismisses, closes or removes what it sits in. */
export function CloseButton({ label, onClick, look = 'icon', className }: CloseButtonProps) {
  const lookClass = look === 'icon' ? 'icon-button' : 'button button-small';
  return (
    <button
      type="button"
      className={className === undefined ? lookClass : `${lookClass} ${className}`}
      aria-label={label}
      onClick={onClick}
    >
      ×
    </button>
  );
}
