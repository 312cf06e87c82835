import type { ReactNode } from 'react';

interface SegmentedProps<T extends string> {
  /** Names the group for screen readers. */
  readonly label: string;
  readonly options: readonly T[];
  readonly value: T;
  readonly optionLabel: (option: T) => ReactNode;
  readonly onChoose: (option: T) => void;
}

/** One choice among a few, as a row of toggle buttons: the chosen one is pressed (aria-pressed). */
export function Segmented<T extends string>({ label, options, value, optionLabel, onChoose }: SegmentedProps<T>) {
  return (
    <div role="group" aria-label={label} className="segmented">
      {options.map((option) => (
        <button
          key={option}
          type="button"
          className="button button-small"
          aria-pressed={option === value}
          onClick={() => onChoose(option)}
        >
          {optionLabel(option)}
        </button>
      ))}
    </div>
  );
}
